//! Reading the `calimero_abi_v1` custom section out of a `.wasm` module.
//!
//! The module is walked section by section (id byte, LEB128 size); custom
//! sections (id 0) carry a LEB128-prefixed name. Truncated or overlong LEB128
//! values and sizes that run past the end are errors, never panics.

/// The custom section the Calimero toolchain embeds the manifest in.
pub(crate) const SECTION: &str = "calimero_abi_v1";

/// Returns the payloads of every `calimero_abi_v1` section, in module order.
pub(crate) fn abi_sections(module: &[u8]) -> Result<Vec<&[u8]>, String> {
    if module.len() < 8 || &module[..4] != b"\0asm" {
        return Err("not a WebAssembly module (missing the \\0asm header)".into());
    }
    if module[4..8] != [1, 0, 0, 0] {
        return Err("unsupported WebAssembly binary version (expected 1)".into());
    }
    let mut pos = 8;
    let mut found = Vec::new();
    while pos < module.len() {
        let id = module[pos];
        pos += 1;
        let size = leb_u32(module, &mut pos)? as usize;
        let end = pos.checked_add(size).filter(|&e| e <= module.len()).ok_or_else(|| {
            format!("section at byte {pos} claims {size} bytes but the module ends first (truncated file?)")
        })?;
        if id == 0 {
            let mut p = pos;
            let name_len = leb_u32(&module[..end], &mut p)? as usize;
            let name_end = p
                .checked_add(name_len)
                .filter(|&e| e <= end)
                .ok_or("custom section name runs past its section")?;
            if &module[p..name_end] == SECTION.as_bytes() {
                found.push(&module[name_end..end]);
            }
        }
        pos = end;
    }
    Ok(found)
}

fn leb_u32(bytes: &[u8], pos: &mut usize) -> Result<u32, String> {
    let mut result: u64 = 0;
    for i in 0..5 {
        let byte = *bytes
            .get(*pos)
            .ok_or("truncated LEB128 number (the module ends inside it)")?;
        *pos += 1;
        result |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return u32::try_from(result)
                .map_err(|_| "LEB128 number does not fit in 32 bits".to_string());
        }
    }
    Err("overlong LEB128 number".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(sections: &[(&str, &[u8])]) -> Vec<u8> {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        for (name, payload) in sections {
            let mut body = vec![name.len() as u8];
            body.extend_from_slice(name.as_bytes());
            body.extend_from_slice(payload);
            m.push(0);
            m.push(body.len() as u8);
            m.extend(body);
        }
        m
    }

    #[test]
    fn finds_every_abi_section_in_order() {
        let m = module(&[("other", b"x"), (SECTION, b"{1}"), (SECTION, b"{2}")]);
        assert_eq!(abi_sections(&m).unwrap(), vec![&b"{1}"[..], &b"{2}"[..]]);
    }

    #[test]
    fn truncated_modules_are_errors() {
        let m = module(&[(SECTION, b"{}")]);
        for cut in 9..m.len() {
            assert!(
                abi_sections(&m[..cut]).is_err() || abi_sections(&m[..cut]).unwrap().is_empty()
            );
        }
        assert!(abi_sections(b"\0asm\x01\0\0\0\0\xff\xff\xff\xff\xff\xff").is_err());
        assert!(abi_sections(b"not wasm").is_err());
    }
}
