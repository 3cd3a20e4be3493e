//! Tool names, exactly per the spec.
//!
//! `<slug>_<method>` for a single-service app, `<slug>_<service>_<method>` for
//! several. The slug is the package's trailing dot segment, lowercased, with
//! every run of characters outside `[a-z0-9_]` collapsed to `_`; an app
//! without package (a node that joined a context lists it so) has a short
//! prefix of its application id ([`id_prefix`]), so its names keep the method. Every part of
//! a name goes through the same sanitiser, so names match `^[a-z0-9_-]+$`.

use sha2::{Digest, Sha256};

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
pub(crate) fn shorten(full: &str, max: usize) -> String {
    if full.len() <= max {
        return full.to_string();
    }
    let digest = Sha256::digest(full.as_bytes());
    let hex: String = digest.iter().take(3).map(|b| format!("{b:02x}")).collect();
    format!("{}_{hex}", &full[..max - 7])
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

    /// A shortened name ends in the first 3 bytes, in hex, of the full
    /// name's SHA-256 (the expected value computed independently, with
    /// Python's hashlib).
    #[test]
    fn a_long_name_ends_in_its_sha256() {
        let full = "kv_store_a_very_long_method_name_indeed";
        assert_eq!(shorten(full, 20), "kv_store_a_ve_3c8dda");
        assert_eq!(shorten(full, full.len()), full);
    }

    #[test]
    fn id_tail_takes_letters_and_digits() {
        assert_eq!(id_tail("4F-a.b9xYz"), "4fab9x");
    }
}
