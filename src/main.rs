//! The `calimcp` binary: everything lives in the library; see `calimcp::cli`.

// The mapping allocates many small JSON maps; mimalloc makes that (and freeing
// them) several times cheaper than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Turns transparent huge pages off for the process before mimalloc runs
/// (`cli::main` asks again; that call came too late). mimalloc asks for
/// huge pages on its arena (`MADV_HUGEPAGE`) and its first allocations come
/// from Rust's runtime before `main`: each start then faulted in two 2 MiB
/// huge pages, zeroed in full: about half of what `--version` cost over
/// a hello-world (BENCHMARKS.md, issue 34). A constructor of priority 100
/// runs before mimalloc's own (101) and before the runtime.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00100")]
static THP_OFF_BEFORE_THE_ALLOCATOR: extern "C" fn() = {
    extern "C" fn thp_off() {
        // SAFETY: PR_SET_THP_DISABLE takes integer arguments only and sets a
        // flag of this process; failure (an old kernel) leaves THP as it was.
        unsafe {
            libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
        }
    }
    thp_off
};

fn main() -> std::process::ExitCode {
    calimcp::cli::main()
}
