//! Any bytes as one line on `calimcp serve`'s stdin: decoded (a message, an
//! error answer or nothing) without a panic, and an error answer's id read
//! from the line's head when it is there.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = calimcp::mcp::stdio::fuzz_line(data);
});
