//! Whether a result is the value waited for (`call VIEW --until`, MCP
//! `call_until`): one comparison for both faces, exact, never through f64.
//!
//! Values compare as JSON: objects regardless of key order, arrays item by
//! item, strings by text. Numbers compare by their decimal text as a number:
//! `5`, `5.0` and `5e0` are equal, `18446744073709552000` and
//! `18446744073709551615` are not (through a double both are 2^64). A number
//! read into a double (a non-integer, or an integer beyond 64 bits) keeps the
//! shortest decimal text that gives that double back — the text a JavaScript
//! client sends. A string that is a JSON number's text matches that number,
//! and a number matches such a string: a result the server returned as a
//! decimal string (a 64-bit integer beyond 2^53) is waited for by that string,
//! and a client that can only write numbers as doubles waits for a large
//! integer exactly by writing it as a string. Pure: no I/O.

use serde_json::{Number, Value};

/// Whether `actual` is `expected`, by the rules above.
pub fn same(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Number(x), Value::Number(y)) => same_number(x, y),
        (Value::String(s), Value::Number(n)) | (Value::Number(n), Value::String(s)) => {
            decimal(s).is_some_and(|d| decimal(&n.to_string()) == Some(d))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => expected == actual,
    }
}

/// Two JSON numbers by their decimal text.
fn same_number(x: &Number, y: &Number) -> bool {
    if let (Some(a), Some(b)) = (x.as_i64(), y.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (x.as_u64(), y.as_u64()) {
        return a == b;
    }
    let (a, b) = (decimal(&x.to_string()), decimal(&y.to_string()));
    a.is_some() && a == b
}

/// A number's value as decimal text: its sign, its significant digits (no
/// leading or trailing zeros) and the power of ten of the last one; zero is
/// `(false, "", 0)`. `None` unless `text` is a JSON number.
fn decimal(text: &str) -> Option<(bool, String, i64)> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => {
            let e = &rest[at + 1..];
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            // An exponent too large for i64 is no number anyone sends.
            (&rest[..at], e.parse::<i64>().ok()?)
        }
        None => (rest, 0),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) if !f.is_empty() => (i, f),
        Some(_) => return None,
        None => (mantissa, ""),
    };
    let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty()
        || !digits_only(int)
        || !digits_only(frac)
        || (int.len() > 1 && int.starts_with('0'))
    {
        return None;
    }
    let all = format!("{int}{frac}");
    let significant = all.trim_start_matches('0');
    let trimmed = significant.trim_end_matches('0');
    if trimmed.is_empty() {
        return Some((false, String::new(), 0));
    }
    let dropped = (significant.len() - trimmed.len()) as i64;
    let power = exponent
        .checked_sub(frac.len() as i64)?
        .checked_add(dropped)?;
    Some((negative, trimmed.to_string(), power))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parsed(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn numbers_compare_by_decimal_value_never_through_a_double() {
        assert!(same(&json!(5), &json!(5.0)));
        assert!(same(&parsed("5e0"), &json!(5)));
        assert!(same(&parsed("-0.0"), &json!(0)));
        assert!(same(&json!(u64::MAX), &json!(u64::MAX)));
        // What a JavaScript client sends for u64::MAX: 2^64 through a double.
        assert!(!same(&parsed("18446744073709552000"), &json!(u64::MAX)));
        assert!(!same(
            &parsed("9007199254740992.0"),
            &json!(9007199254740993u64)
        ));
        assert!(same(
            &parsed("9007199254740992.0"),
            &json!(9007199254740992u64)
        ));
        assert!(!same(&json!(0.1), &json!(0.10000000000000002)));
        assert!(!same(&json!(-1), &json!(1)));
        assert!(same(&json!(i64::MIN), &json!(i64::MIN)));
    }

    #[test]
    fn a_number_and_its_decimal_string_are_the_same() {
        assert!(same(&json!("18446744073709551615"), &json!(u64::MAX)));
        assert!(same(&json!(u64::MAX), &json!("18446744073709551615")));
        assert!(!same(&json!("18446744073709551614"), &json!(u64::MAX)));
        assert!(same(
            &json!("-9007199254740993"),
            &json!(-9007199254740993i64)
        ));
        assert!(same(&json!("5"), &json!(5)));
        assert!(!same(&json!("05"), &json!(5)), "not a JSON number's text");
        assert!(!same(&json!("five"), &json!(5)));
        assert!(!same(&json!(" 5"), &json!(5)));
    }

    #[test]
    fn other_values_compare_as_json() {
        assert!(same(
            &json!({"b": 1, "a": [true]}),
            &json!({"a": [true], "b": 1.0})
        ));
        assert!(!same(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!same(&json!([1, 2]), &json!([2, 1])));
        assert!(same(&json!(null), &json!(null)));
        assert!(!same(&json!(null), &json!("null")));
        assert!(same(&json!("done"), &json!("done")));
    }

    #[test]
    fn decimal_text_is_read_exactly() {
        assert_eq!(decimal("1200"), Some((false, "12".into(), 2)));
        assert_eq!(decimal("0.0120"), Some((false, "12".into(), -3)));
        assert_eq!(decimal("-1.5e3"), Some((true, "15".into(), 2)));
        assert_eq!(
            decimal("1.8446744073709552e19"),
            decimal("18446744073709552000")
        );
        for bad in [
            "",
            "-",
            "1.",
            ".5",
            "01",
            "1e",
            "1e+",
            "0x10",
            "1_000",
            "+1",
            "1e99999999999999999999",
        ] {
            assert_eq!(decimal(bad), None, "{bad}");
        }
    }
}
