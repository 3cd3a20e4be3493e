fn main() -> std::process::ExitCode {
    calimcp::cli::main()
}
