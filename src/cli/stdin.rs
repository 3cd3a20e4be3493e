//! `-` as APP: one manifest (a `wasm-abi/1` JSON or a `.wasm` with an
//! embedded ABI) read from stdin, for `diff`, `schema`, `describe` and
//! `tools` alike.

use std::io::Read;

use super::GlobalArgs;
use calimcp_catalog::Catalog;
use calimcp_catalog::session::{Selection, Session, check_service};
use calimcp_core::abi::{App, load};
use calimcp_core::error::{Code, Error, Result};

/// Where a stdin app says it came from.
pub(crate) const SOURCE: &str = "<stdin>";

/// A manifest on stdin as a single-service app. Its package is --package,
/// else `other` (the other side of a `diff`, so tool names compare like for
/// like), else `stdin`.
pub(crate) fn read_app(g: &GlobalArgs, other: Option<&str>) -> Result<App> {
    let bytes = read_bounded(std::io::stdin().lock(), load::MAX_FILE)?;
    let package = g
        .package
        .clone()
        .or_else(|| other.map(str::to_string))
        .unwrap_or_else(|| "stdin".into());
    let wasm = bytes.starts_with(b"\0asm");
    load::app_from_bytes(bytes, wasm, package, SOURCE.into())
}

/// All of `input`, or an error once it holds more than `max` bytes (the
/// bound files have), so a runaway pipe cannot fill memory.
pub(crate) fn read_bounded(input: impl Read, max: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    input
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::input(Code::Unreadable, format!("cannot read stdin: {e}")))?;
    if bytes.len() as u64 > max {
        return Err(Error::input(
            Code::Unreadable,
            format!(
                "stdin is larger than {} MiB, the most calimcp reads of a manifest, module or bundle",
                max >> 20
            ),
        )
        .with_hint("pass the file by its path, or check what is piped in"));
    }
    Ok(bytes)
}

/// The apps `args` name ([`GlobalArgs::select`]), where `-` is the app on
/// stdin: alone, it is the whole catalog (no apps directory, no node), so its
/// tool names are what they are for that manifest alone. `-` beside other
/// APPs is refused rather than guessed at.
pub(crate) fn select(
    g: &GlobalArgs,
    session: &Session,
    args: &[String],
    one: bool,
) -> Result<Selection> {
    if !args.iter().any(|a| a == "-") {
        return g.select(session, args, one);
    }
    if args.len() > 1 {
        return Err(Error::input(
            Code::Usage,
            "`-` (an app read from stdin) cannot be listed with other apps",
        )
        .with_hint("list the piped app alone, or save it to a file and pass its path"));
    }
    let app = read_app(g, None)?;
    if let Some(s) = &g.service {
        check_service(&app, s)?;
    }
    Ok(Selection {
        catalog: Catalog::new(vec![app], Vec::new(), &g.tool_options()),
        apps: vec![0],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_bounded_refuses_more_than_the_bound() {
        assert_eq!(read_bounded(&b"abc"[..], 3).unwrap(), b"abc");
        let e = read_bounded(&[0u8; 4][..], 3).unwrap_err();
        assert_eq!(e.code, Code::Unreadable);
    }
}
