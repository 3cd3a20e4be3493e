//! The `calimcp` binary: everything lives in the library; see `calimcp::cli`.

// The mapping allocates many small JSON maps; mimalloc makes that (and freeing
// them) several times cheaper than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    calimcp::cli::main()
}
