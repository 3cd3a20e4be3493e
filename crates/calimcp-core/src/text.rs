//! Making untrusted text (from a manifest, a node or a user) safe to show.
//!
//! Manifest strings reach terminals and agent prompts. Control characters (ESC
//! sequences, carriage returns, bells), C1 controls and Unicode bidirectional
//! overrides are removed; documentation keeps its newlines and tabs. Also the
//! UTC times calimcp prints (RFC 3339 and a clock), without a date crate.

/// True when every byte is printable ASCII, a newline or a tab: nothing to
/// sanitise (the common case). No early exit, so the compiler checks many
/// bytes per instruction.
fn plain(s: &str) -> bool {
    !s.bytes().fold(false, |odd, b| {
        odd | (b >= 0x7f) | ((b < 0x20) & (b != b'\n') & (b != b'\t'))
    })
}

/// False when `text` holds no character [`is_dangerous`] finds but newlines
/// and tabs, read from the UTF-8 bytes without decoding: every such
/// character is a C0 control, DEL, `C2 80`–`C2 9F` (C1), `D8 9C` (U+061C),
/// `E2 80 8E`, `E2 80 8F` (U+200E, U+200F), `E2 80 AA`–`E2 80 AE`
/// (U+202A–U+202E) or `E2 81 A6`–`E2 81 A9` (U+2066–U+2069). Other text, `±`,
/// `−` or `—` in a schema's words too, passes without the check by character.
/// The controls are looked for in one pass without early exit (many bytes
/// per instruction), the three lead bytes with `memchr`, so only those
/// places are looked at one by one (a whole listing's JSON is checked).
fn may_be_dangerous(text: &[u8]) -> bool {
    let control = text.iter().fold(false, |found, &b| {
        found | ((b < 0x20) & (b != b'\n') & (b != b'\t')) | (b == 0x7f)
    });
    let at = |i: usize| text.get(i).copied().unwrap_or(0);
    control
        || any_lead_byte(text, |i| match text[i] {
            0xc2 => (0x80..0xa0).contains(&at(i + 1)),
            0xd8 => at(i + 1) == 0x9c,
            _ => match (at(i + 1), at(i + 2)) {
                (0x80, n) => matches!(n, 0x8e | 0x8f | 0xaa..=0xae),
                (0x81, n) => matches!(n, 0xa6..=0xa9),
                _ => false,
            },
        })
}

/// Whether `test` holds for the index of some `C2`, `D8` or `E2` byte of `text`.
/// With memchr's SSE2 searcher where the target guarantees SSE2 (every
/// x86_64) rather than its `memchr3`, which picks AVX2 or SSE2 by asking the
/// CPU once per process: the CPUID instructions that asks with cost ~7 µs
/// each under a hypervisor, ~50 µs of a one-shot command (issue 34).
fn any_lead_byte(text: &[u8], test: impl FnMut(usize) -> bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    if let Some(three) = memchr::arch::x86_64::sse2::memchr::Three::new(0xc2, 0xd8, 0xe2) {
        return three.iter(text).any(test);
    }
    memchr::arch::all::memchr::Three::new(0xc2, 0xd8, 0xe2)
        .iter(text)
        .any(test)
}

fn is_dangerous(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// One line of text: every control character is dropped (newlines become spaces).
pub fn sanitize_line(s: &str) -> String {
    if (plain(s) && !s.contains(['\n', '\t'])) || !s.chars().any(is_dangerous) {
        return s.to_string();
    }
    s.chars()
        .filter_map(|c| match c {
            '\n' | '\t' => Some(' '),
            c if is_dangerous(c) => None,
            c => Some(c),
        })
        .collect()
}

/// Documentation: newlines and tabs are kept, every other control character dropped.
pub fn sanitize_doc(s: &str) -> String {
    if plain(s) {
        return s.to_string();
    }
    strip_doc(s)
}

/// [`sanitize_doc`] of a string the caller owns: kept as it is (no copy)
/// when there is nothing to take out.
pub(crate) fn sanitize_doc_owned(s: String) -> String {
    if plain(&s) {
        return s;
    }
    strip_doc(&s)
}

/// [`sanitize_doc`] past its plain-text check.
fn strip_doc(s: &str) -> String {
    let s = s.replace("\r\n", "\n");
    if !s.chars().any(|c| c != '\n' && c != '\t' && is_dangerous(c)) {
        return s;
    }
    s.chars()
        .filter(|&c| c == '\n' || c == '\t' || !is_dangerous(c))
        .collect()
}

/// JSON text that is inert on a terminal: serde_json escapes only C0 controls,
/// so DEL, C1 controls and bidirectional overrides (which can only occur inside
/// strings) become `\uXXXX` escapes. The JSON value is unchanged.
pub fn json_inert(text: String) -> String {
    let risky = |c: char| c != '\n' && c != '\t' && is_dangerous(c);
    if plain(&text) || !may_be_dangerous(text.as_bytes()) || !text.chars().any(risky) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 32);
    for c in text.chars() {
        if risky(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Closest candidates to `input` among `known`, for "did you mean" hints.
pub fn did_you_mean<'a>(input: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let input = input.to_ascii_lowercase();
    let mut scored: Vec<(f64, &str)> = known
        .into_iter()
        .map(|k| (similarity(&input, &k.to_ascii_lowercase()), k))
        .filter(|(score, _)| *score >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, k)| k).collect()
}

/// How alike two lowercase names are, from 0 to 1: Jaro-Winkler, raised for
/// names one or two edits apart (transpositions included), so `gte` finds `get`.
pub fn similarity(a: &str, b: &str) -> f64 {
    let jw = strsim::jaro_winkler(a, b);
    let edits = strsim::damerau_levenshtein(a, b);
    let close = edits <= 1 || (edits == 2 && a.len().min(b.len()) >= 5);
    if close { jw.max(0.85) } else { jw }
}

/// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar.
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn parts(t: std::time::SystemTime) -> (i64, u32, u32, u64, u64, u64, u32) {
    let d = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    let (y, mo, day) = civil((secs / 86_400) as i64);
    let s = secs % 86_400;
    (y, mo, day, s / 3600, s / 60 % 60, s % 60, d.subsec_millis())
}

/// `2026-12-04T05:30:01.123Z`.
pub fn rfc3339(t: std::time::SystemTime) -> String {
    let (y, mo, d, h, mi, s, ms) = parts(t);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{ms:03}Z")
}

/// `05:30:01.123`.
pub fn clock(t: std::time::SystemTime) -> String {
    let (_, _, _, h, mi, s, ms) = parts(t);
    format!("{h:02}:{mi:02}:{s:02}.{ms:03}")
}

/// `n` bytes for messages: `16 MiB`, `512 KiB`, `100 bytes`.
pub fn size(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// Parses a size: bytes, or a number with K, M, G (binary units; `KiB`,
/// `MB` and the like are accepted too).
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: u64 = num.parse().ok()?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return None,
    };
    n.checked_mul(1 << shift).filter(|&n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_never_survive() {
        let evil = "ok\u{1b}[2J\u{1b}]0;pwned\u{7}\r\u{9b}31m\u{202E}done";
        for out in [sanitize_line(evil), sanitize_doc(evil)] {
            assert!(
                !out.chars()
                    .any(|c| c.is_control() && c != '\n' && c != '\t'),
                "{out:?}"
            );
            assert!(!out.contains('\u{202E}'));
            assert!(out.starts_with("ok") && out.ends_with("done"));
        }
    }

    #[test]
    fn json_text_is_inert_and_unchanged_in_value() {
        let v = serde_json::json!({"k\u{202E}": "a\u{9b}31m\u{7f}\u{1b}b\n"});
        let text = json_inert(serde_json::to_string(&v).unwrap());
        assert!(
            !text.chars().any(|c| c.is_control() || c == '\u{202E}'),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), v);
    }

    /// The byte test never passes a character the character test finds.
    #[test]
    fn the_byte_test_finds_every_dangerous_character() {
        let mut buf = [0u8; 4];
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            if c != '\n' && c != '\t' && is_dangerous(c) {
                assert!(may_be_dangerous(bytes), "U+{:04X}", u32::from(c));
            }
        }
        assert!(!may_be_dangerous("±2^53\u{2212}1 — é a\n\tb".as_bytes()));
    }

    #[test]
    fn docs_keep_newlines_lines_do_not() {
        assert_eq!(sanitize_doc("a\r\nb\n\tc"), "a\nb\n\tc");
        assert_eq!(sanitize_line("a\nb"), "a b");
    }

    #[test]
    fn suggestions_rank_the_closest_first() {
        assert_eq!(
            did_you_mean("kv_store_gte", ["kv_store_get", "kv_store_set", "other"]),
            vec!["kv_store_get", "kv_store_set"]
        );
        assert!(did_you_mean("zzz", ["kv_store_get"]).is_empty());
        assert_eq!(did_you_mean("gte", ["get", "set", "entries"]), vec!["get"]);
    }

    #[test]
    fn times_are_utc_rfc3339() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_796_362_201_123);
        assert_eq!(rfc3339(t), "2026-12-04T05:30:01.123Z");
        assert_eq!(clock(t), "05:30:01.123");
        assert_eq!(rfc3339(std::time::UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        // A leap day.
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(951_782_400);
        assert_eq!(rfc3339(t), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn sizes_parse_and_print() {
        assert_eq!(parse_size("16MiB"), Some(16 << 20));
        assert_eq!(parse_size("16 M"), Some(16 << 20));
        assert_eq!(parse_size("1g"), Some(1 << 30));
        assert_eq!(parse_size("100"), Some(100));
        assert_eq!(parse_size("0"), None);
        assert_eq!(parse_size("12 parsecs"), None);
        assert_eq!(parse_size("99999999999999999999G"), None);
        assert_eq!(size(16 << 20), "16 MiB");
        assert_eq!(size(1536), "1536 bytes");
        assert_eq!(size(2048), "2 KiB");
    }
}
