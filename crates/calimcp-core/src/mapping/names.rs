//! Tool names, exactly per the spec.
//!
//! `<slug>_<method>` for a single-service app, `<slug>_<service>_<method>` for
//! several. The slug is the package's trailing dot segment, lowercased, with
//! every run of characters outside `[a-z0-9_]` collapsed to `_`; an app
//! without package (a node that joined a context lists it so) has a short
//! prefix of its application id ([`id_prefix`]), so its names keep the method. Every part of
//! a name goes through the same sanitiser, so names match `^[a-z0-9_-]+$`.

/// Names clients such as Claude Code prefix with about 15 characters; 64 − 15.
pub const DEFAULT_MAX_NAME_LEN: usize = 49;
/// The shortest bound `--max-name-len` accepts (room for a prefix and the hash).
pub const MIN_MAX_NAME_LEN: usize = 16;

/// Lowercases and collapses every run of non-`[a-z0-9_]` characters to `_`.
pub fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_run = false;
    for c in s.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('_');
            in_run = true;
        }
    }
    if out.is_empty() { "app".into() } else { out }
}

/// The slug of an app: the sanitised trailing dot segment of its package (or id).
pub fn app_slug(package_or_id: &str) -> String {
    sanitize(package_or_id.rsplit('.').next().unwrap_or(package_or_id))
}

/// The first six letters and digits of an application id, lowercased.
pub fn id_tail(id: &str) -> String {
    id_prefix(id, 6)
}

/// The first `len` letters and digits of an application id, lowercased: the
/// slug of an app the node lists without package (at least 6, longer only
/// when another app's prefix is the same).
pub fn id_prefix(id: &str, len: usize) -> String {
    id.chars()
        .filter(char::is_ascii_alphanumeric)
        .take(len)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Shortens a name longer than `max` to `max - 7` characters, `_` and 6 hex of
/// SHA-256 of the full name; shorter names are returned as they are.
pub fn shorten(full: &str, max: usize) -> String {
    if full.len() <= max {
        return full.to_string();
    }
    let digest = sha256(full.as_bytes());
    let hex: String = digest.iter().take(3).map(|b| format!("{b:02x}")).collect();
    format!("{}_{hex}", &full[..max - 7])
}

/// SHA-256 in software, for hashing a tool name. The `sha2` crate first asks
/// the CPU whether it has SHA instructions: three CPUID instructions, each a
/// trap to the hypervisor on a virtual machine (~7 µs here, issue 34),
/// which costs a one-shot command more than hashing every name it shortens.
/// Tested against `sha2`.
fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    // The message, a 1 bit, zeros, and its length in bits: whole 64-byte blocks.
    let mut msg = data.to_vec();
    msg.push(0x80);
    msg.resize((data.len() + 9).div_ceil(64) * 64 - 8, 0);
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (w, word) in w.iter_mut().zip(block.chunks_exact(4)) {
            *w = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for (k, w) in K.iter().zip(w) {
            let [a, b, c, d, e, f, g, hh] = v;
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(*k)
                .wrapping_add(w);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let t2 = s0.wrapping_add((a & b) ^ (a & c) ^ (b & c));
            v = [t1.wrapping_add(t2), a, b, c, d.wrapping_add(t1), e, f, g];
        }
        for (h, v) in h.iter_mut().zip(v) {
            *h = h.wrapping_add(v);
        }
    }
    let mut out = [0u8; 32];
    for (out, h) in out.chunks_exact_mut(4).zip(h) {
        out.copy_from_slice(&h.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_the_spec() {
        assert_eq!(app_slug("com.calimero.kv-store"), "kv_store");
        assert_eq!(app_slug("com.example.My  App!!"), "my_app_");
        assert_eq!(app_slug("plain"), "plain");
        assert_eq!(sanitize("Über--Cool"), "_ber_cool");
    }

    #[test]
    fn long_names_are_shortened_to_the_bound() {
        let full = "a".repeat(70);
        let short = shorten(&full, 49);
        assert_eq!(short.len(), 49);
        assert!(short.starts_with(&"a".repeat(42)));
        assert_eq!(short.as_bytes()[42], b'_');
        assert_eq!(short, shorten(&full, 49));
        assert_ne!(short, shorten(&"a".repeat(71), 49));
        assert_eq!(shorten("kv_store_get", 49), "kv_store_get");
    }

    /// The name hash is SHA-256, byte for byte, at every length around the
    /// block and padding boundaries.
    #[test]
    fn the_name_hash_is_sha256() {
        use sha2::{Digest, Sha256};
        for len in 0..300 {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            assert_eq!(sha256(&data)[..], Sha256::digest(&data)[..], "length {len}");
        }
        assert_eq!(
            sha256(b"abc")[..4],
            [0xba, 0x78, 0x16, 0xbf],
            "FIPS 180-2's example"
        );
    }

    #[test]
    fn id_tail_takes_letters_and_digits() {
        assert_eq!(id_tail("4F-a.b9xYz"), "4fab9x");
    }
}
