//! 32-byte ids (context, application, blob ids and public keys) in either
//! encoding, and the form a node uses.
//!
//! Nodes up to 0.11.0-rc.25 at least write and accept these ids only as
//! base58; later cores are reported to use 64 hex characters. calimcp accepts
//! both from the user, compares ids by their bytes (never as strings) and
//! sends the form the node itself uses, learnt from its own answers
//! ([`IdForm::of`] on listings and alias values). Pure functions, no I/O.

use std::sync::atomic::{AtomicU8, Ordering};

/// How a node writes 32-byte ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdForm {
    Base58,
    Hex,
}

impl IdForm {
    /// The form `s` is written in, when it is a 32-byte id at all.
    pub(crate) fn of(s: &str) -> Option<IdForm> {
        if is_hex64(s) {
            Some(IdForm::Hex)
        } else if base58_32(s).is_some() {
            Some(IdForm::Base58)
        } else {
            None
        }
    }

    /// The other form.
    pub(crate) fn other(self) -> IdForm {
        match self {
            IdForm::Base58 => IdForm::Hex,
            IdForm::Hex => IdForm::Base58,
        }
    }

    /// `bytes` written in this form.
    pub(crate) fn encode(self, bytes: &[u8; 32]) -> String {
        match self {
            IdForm::Base58 => bs58::encode(bytes).into_string(),
            IdForm::Hex => bytes.iter().map(|b| format!("{b:02x}")).collect(),
        }
    }
}

fn is_hex64(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

fn base58_32(s: &str) -> Option<[u8; 32]> {
    // base58 of 32 bytes is 32 to 44 characters long.
    if !(32..=44).contains(&s.len()) {
        return None;
    }
    let v = bs58::decode(s).into_vec().ok()?;
    v.try_into().ok()
}

/// The 32 bytes of an id given as 64 hex characters or base58.
pub fn decode(s: &str) -> Option<[u8; 32]> {
    if is_hex64(s) {
        let mut out = [0u8; 32];
        for (i, pair) in s.as_bytes().chunks(2).enumerate() {
            let text = std::str::from_utf8(pair).ok()?;
            out[i] = u8::from_str_radix(text, 16).ok()?;
        }
        return Some(out);
    }
    base58_32(s)
}

/// Whether `s` is a 32-byte id in either form.
pub fn is_id(s: &str) -> bool {
    decode(s).is_some()
}

/// Whether two ids name the same thing: equal bytes when both decode, else
/// equal strings. To compare many ids, index them by [`key`] instead.
pub fn same(a: &str, b: &str) -> bool {
    key(a) == key(b)
}

/// An id as a map key: its 32 bytes when it is an id in either form, else
/// its text (an alias, or whatever a node sent). Two strings have equal keys
/// exactly when [`same`] says they name the same thing, so a listing is
/// indexed once (each id decoded once) and looked up in constant time.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IdKey {
    Bytes([u8; 32]),
    Text(String),
}

/// The [`IdKey`] of `s`.
pub fn key(s: &str) -> IdKey {
    match decode(s) {
        Some(bytes) => IdKey::Bytes(bytes),
        None => IdKey::Text(s.to_string()),
    }
}

/// Values grouped by the id they belong to, each id decoded once: an
/// alias listing by context, installs by application. Looking one id up
/// decodes that id only, so matching n rows against m values is O(n + m).
#[derive(Debug)]
pub struct ById<V>(std::collections::HashMap<IdKey, Vec<V>>);

impl<V> ById<V> {
    /// `(id, value)` pairs, grouped; values keep their order.
    pub fn new<'a>(pairs: impl IntoIterator<Item = (&'a str, V)>) -> ById<V> {
        let mut map: std::collections::HashMap<IdKey, Vec<V>> = std::collections::HashMap::new();
        for (id, v) in pairs {
            map.entry(key(id)).or_default().push(v);
        }
        ById(map)
    }

    /// The values of `id` (either form), in the order given.
    pub fn get(&self, id: &str) -> &[V] {
        self.0.get(&key(id)).map_or(&[], Vec::as_slice)
    }
}

/// `e` naming the id `typed` (when given) as it was typed where the node wrote it in its
/// other form (`-c 00…00` is not echoed as `1111…`); an alias, which is no
/// id, leaves `e` as it is. Both faces name a context this way.
pub fn error_as_typed(
    e: calimcp_core::error::Error,
    typed: Option<&str>,
) -> calimcp_core::error::Error {
    match typed.and_then(|t| IdForm::of(t).map(|f| (t, f))) {
        Some((typed, form)) => e.renamed(&to_form(typed, form.other()), typed),
        None => e,
    }
}

/// `s` rewritten in `form` when it is an id; otherwise unchanged.
pub fn to_form(s: &str, form: IdForm) -> String {
    match decode(s) {
        Some(bytes) => form.encode(&bytes),
        None => s.to_string(),
    }
}

/// What one node has told this process about its id form.
#[derive(Debug, Default)]
pub(crate) struct Learnt(AtomicU8);

impl Learnt {
    /// The node's form, when an answer has shown it.
    pub(crate) fn get(&self) -> Option<IdForm> {
        match self.0.load(Ordering::Relaxed) {
            1 => Some(IdForm::Base58),
            2 => Some(IdForm::Hex),
            _ => None,
        }
    }

    /// Records the form of an id the node wrote.
    pub(crate) fn saw(&self, id: &str) {
        if let Some(f) = IdForm::of(id) {
            self.set(f);
        }
    }

    pub(crate) fn set(&self, form: IdForm) {
        let v = match form {
            IdForm::Base58 => 1,
            IdForm::Hex => 2,
        };
        self.0.store(v, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_decode_to_the_same_bytes() {
        let bytes = [7u8; 32];
        let b58 = IdForm::Base58.encode(&bytes);
        let hex = IdForm::Hex.encode(&bytes);
        assert_eq!(hex, "07".repeat(32));
        assert_eq!(decode(&b58), Some(bytes));
        assert_eq!(decode(&hex), Some(bytes));
        assert_eq!(decode(&hex.to_uppercase()), Some(bytes));
        assert!(same(&b58, &hex));
        assert!(!same(&b58, &IdForm::Hex.encode(&[8u8; 32])));
        assert!(same("alias", "alias") && !same("alias", &b58));
        assert_eq!(key(&b58), key(&hex.to_uppercase()));
        assert_eq!(key("alias"), IdKey::Text("alias".into()));
        assert_eq!(IdForm::of(&b58), Some(IdForm::Base58));
        assert_eq!(IdForm::of(&hex), Some(IdForm::Hex));
        assert_eq!(to_form(&hex, IdForm::Base58), b58);
        assert_eq!(to_form("default", IdForm::Hex), "default");
    }

    #[test]
    fn values_are_found_by_either_form_of_their_id() {
        let (a, b) = ([1u8; 32], [2u8; 32]);
        let a58 = IdForm::Base58.encode(&a);
        let ahex = IdForm::Hex.encode(&a);
        let idx = ById::new([(a58.as_str(), "x"), ("alias", "y"), (ahex.as_str(), "z")]);
        assert_eq!(idx.get(&ahex), ["x", "z"]);
        assert_eq!(idx.get("alias"), ["y"]);
        assert!(idx.get(&IdForm::Hex.encode(&b)).is_empty());
    }

    #[test]
    fn near_misses_are_not_ids() {
        assert!(!is_id(&"ab".repeat(31)));
        assert!(!is_id(&"xy".repeat(32)));
        assert!(!is_id(&bs58::encode([7u8; 31]).into_string()));
        assert!(!is_id("default"));
        assert!(!is_id(&"0".repeat(44)));
        // all-zero bytes are base58 "1" × 32
        assert_eq!(decode(&"1".repeat(32)), Some([0u8; 32]));
    }

    #[test]
    fn the_form_is_learnt_from_answers() {
        let l = Learnt::default();
        assert_eq!(l.get(), None);
        l.saw("not an id");
        assert_eq!(l.get(), None);
        l.saw(&"ab".repeat(32));
        assert_eq!(l.get(), Some(IdForm::Hex));
    }
}
