//! Structural compatibility of two ABI types, with `$ref`s resolved and
//! cycles handled: does every JSON value of type A (in manifest A) still fit
//! type B (in manifest B)? If not, one concrete value that fits A and not B.
//!
//! For parameters A is the old type and B the new one (every value old callers
//! send must still be accepted); for results and event payloads A is the new
//! type and B the old one (every value the new version produces must still be
//! understood by old readers). The value sets are the wire values of the
//! mapping spec: integers by range, bytes as a byte array (or its string form
//! for arguments), variants by serde tagging, CRDT cells as their inner value.
//!
//! Records follow serde: a field the reader does not know is ignored, a
//! missing nullable field reads as null, a missing non-nullable one fails.
//! Recursive types are compared co-inductively: a pair of named types met
//! again on the same path is assumed compatible (its other paths decide).

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use super::follow::{End, follow};
use crate::abi::*;

/// Which way values flow; only bytes' string forms depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Arguments: the string form of bytes (hex, or the declared encoding) is accepted.
    Input,
    /// Results and event payloads: bytes are byte arrays.
    Output,
}

/// A value of A that B rejects, where it sits, and why.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Incompat {
    /// Path segments inside the type, outermost first: `.field`, `[]`, `{}`, `[0]`, `<Case>`.
    pub path: String,
    /// A whole value of the outer type A that B rejects.
    pub example: Value,
    /// What changed, in a few words: `u64 → u32: 4294967296 is out of range`.
    pub why: String,
    /// The comparison stopped at [`MAX_DEPTH`] here: not a counter-example,
    /// an undecided part (reported, never passed).
    pub limit: bool,
    /// `example` is a faithful value (false when its type nests past the
    /// example budget or through a required cycle: then it is not shown).
    pub exact: bool,
}

/// Nested type comparisons followed before the comparison stops and reports
/// the limit (a chain of distinct named types this long is not a real app).
pub(crate) const MAX_DEPTH: u32 = 512;
/// Values an example may hold before it is given up (types that share a
/// record many times over would otherwise make it exponential).
const EXAMPLE_BUDGET: usize = 4096;

impl Default for Incompat {
    fn default() -> Self {
        Incompat {
            path: String::new(),
            example: Value::Null,
            why: String::new(),
            limit: false,
            exact: true,
        }
    }
}

/// A type with references and aliases followed.
enum Shape<'m> {
    Scalar(Scalar),
    Bytes(&'m Bytes),
    List(&'m TypeRef),
    Map(&'m TypeRef),
    Tuple(Vec<(&'m TypeRef, bool)>),
    Record(&'m [Field]),
    Variant(&'m Variant),
    Unknown,
}

/// Follows `$ref`s, aliases and CRDT cells; a dangling reference or a cycle is unknown.
fn resolve<'m>(m: &'m Manifest, t: &'m TypeRef) -> (Shape<'m>, Option<&'m str>) {
    follow(m, t, Shape::Unknown, |end| match end {
        End::Def(TypeDefKind::Record(r)) | End::Inline(TypeRef::Record(r)) => record_shape(r),
        End::Def(TypeDefKind::Variant(v)) => Ok(Shape::Variant(v)),
        End::Def(TypeDefKind::Bytes(b)) | End::Inline(TypeRef::Bytes(b)) => Ok(Shape::Bytes(b)),
        End::Inline(TypeRef::Scalar(s)) => Ok(Shape::Scalar(*s)),
        End::Inline(TypeRef::List { items, .. }) => Ok(Shape::List(items)),
        End::Inline(TypeRef::Map { value, .. }) => Ok(Shape::Map(value)),
        End::Inline(TypeRef::Tuple { elements, .. }) => {
            Ok(Shape::Tuple(elements.iter().map(|e| (e, false)).collect()))
        }
        // Aliases and references never end a walk.
        End::Def(TypeDefKind::Unknown(_) | TypeDefKind::Alias(_))
        | End::Inline(TypeRef::Unknown(_) | TypeRef::Ref(_))
        | End::Dangling => Ok(Shape::Unknown),
    })
}

/// A record's shape, or the inner type of a CRDT cell to follow.
fn record_shape(r: &Record) -> Result<Shape<'_>, &TypeRef> {
    match (&r.crdt, &r.inner) {
        (Some(_), Some(inner)) => Err(inner),
        (Some(_), None) => Ok(Shape::Unknown),
        (None, _) if r.is_positional() => Ok(Shape::Tuple(
            r.fields.iter().map(|f| (&f.ty, f.nullable)).collect(),
        )),
        (None, _) => Ok(Shape::Record(&r.fields)),
    }
}

/// The range of an integer kind ([`crate::mapping::args::int_range`]);
/// `None` for the other kinds.
fn int_range(s: Scalar) -> Option<(i128, i128)> {
    s.is_integer().then(|| crate::mapping::args::int_range(s))
}

fn int_value(n: i128) -> Value {
    if let Ok(u) = u64::try_from(n) {
        json!(u)
    } else {
        json!(n as i64)
    }
}

/// Compares types of two manifests in one direction; reuse it for many pairs
/// of the same two manifests (it remembers named pairs already decided).
///
/// Every named pair is compared once: a pair met again while it is being
/// compared is assumed compatible (co-induction), a pair already decided
/// answers from memory. A failure found anywhere fails the whole check, so
/// assumptions that failed are only trusted inside a check that failed: its
/// undecided memories are dropped with it.
pub(crate) struct Checker<'a> {
    a: &'a Manifest,
    b: &'a Manifest,
    flow: Flow,
    /// Named pairs: `None` compatible or being compared, `Some` their failure
    /// (path relative to the pair).
    memo: HashMap<(&'a str, &'a str), Option<Incompat>>,
    /// Pairs first met in the current top-level check.
    fresh: Vec<(&'a str, &'a str)>,
    depth: u32,
    /// An example built in the current top-level check was not faithful.
    inexact: std::cell::Cell<bool>,
    /// The current top-level check hit [`MAX_DEPTH`]: its outcome is the
    /// limit, not a counter-example, so no example is built on the way up.
    limit_hit: bool,
    /// Named types identical in both manifests down to everything they reach:
    /// compatible with themselves without a look.
    same: Option<&'a HashSet<String>>,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(a: &'a Manifest, b: &'a Manifest, flow: Flow) -> Self {
        Checker {
            a,
            b,
            flow,
            memo: HashMap::new(),
            fresh: Vec::new(),
            depth: 0,
            inexact: std::cell::Cell::new(false),
            limit_hit: false,
            same: None,
        }
    }

    /// Skips pairs of a named type with itself when it is in `same` (types
    /// identical in both manifests, down to everything they reach).
    pub(crate) fn with_unchanged(mut self, same: &'a HashSet<String>) -> Self {
        self.same = Some(same);
        self
    }

    /// `None` when every value of `ta` is a value of `tb`.
    pub(crate) fn check(&mut self, ta: &'a TypeRef, tb: &'a TypeRef) -> Option<Incompat> {
        if self.depth > 0 {
            return self.pair(ta, tb);
        }
        self.fresh.clear();
        self.inexact.set(false);
        self.limit_hit = false;
        let mut r = self.pair(ta, tb);
        if let Some(r) = &mut r {
            r.exact &= !self.inexact.get() && !r.limit;
            for k in std::mem::take(&mut self.fresh) {
                if matches!(self.memo.get(&k), Some(None)) {
                    self.memo.remove(&k);
                }
            }
        }
        r
    }

    fn pair(&mut self, ta: &'a TypeRef, tb: &'a TypeRef) -> Option<Incompat> {
        if self.depth >= MAX_DEPTH {
            self.limit_hit = true;
            return Some(Incompat {
                path: String::new(),
                example: Value::Null,
                why: format!(
                    "the types nest more than {MAX_DEPTH} deep, so calimcp stopped comparing here"
                ),
                limit: true,
                exact: false,
            });
        }
        let (sa, na) = resolve(self.a, ta);
        let (sb, nb) = resolve(self.b, tb);
        let key = na.zip(nb);
        if let (Some((x, y)), Some(same)) = (key, self.same)
            && x == y
            && same.contains(x)
        {
            return None;
        }
        if let Some(key) = key {
            if let Some(done) = self.memo.get(&key) {
                if done.as_ref().is_some_and(|d| !d.exact) {
                    self.inexact.set(true);
                }
                if done.as_ref().is_some_and(|d| d.limit) {
                    self.limit_hit = true;
                }
                return done.clone();
            }
            self.memo.insert(key, None);
            self.fresh.push(key);
        }
        self.depth += 1;
        let result = self.shapes(ta, &sa, &sb);
        self.depth -= 1;
        // A pair past the limit is remembered as such (never as compatible):
        // every other use of it answers at once instead of walking again.
        if let (Some(key), Some(r)) = (key, &result) {
            let mut r = r.clone();
            r.exact &= !self.inexact.get();
            self.memo.insert(key, Some(r));
        }
        result
    }

    /// "A became B", told old → new whichever way the values flow.
    fn became(&self, a: &str, b: &str) -> String {
        match self.flow {
            Flow::Input => format!("{a} became {b}"),
            Flow::Output => format!("{b} became {a}"),
        }
    }

    fn null_change(&self, what: &str) -> String {
        match self.flow {
            Flow::Input => format!("{what} may no longer be null"),
            Flow::Output => format!("{what} may now be null"),
        }
    }

    fn ex(&self, t: &TypeRef) -> Value {
        if self.limit_hit {
            return Value::Null;
        }
        let (v, exact) = example_exact(self.a, t);
        if !exact {
            self.inexact.set(true);
        }
        v
    }

    fn shapes(&mut self, ta: &'a TypeRef, sa: &Shape<'a>, sb: &Shape<'a>) -> Option<Incompat> {
        match (sa, sb) {
            (_, Shape::Unknown) => None,
            // The old type is unchecked: no value is known to have been
            // accepted, so the finding gives no example (none, not a guess).
            (Shape::Unknown, _) => {
                self.inexact.set(true);
                fail(
                    Value::Null,
                    self.became("an unchecked value", "a typed value"),
                )
            }
            (Shape::Scalar(x), Shape::Scalar(y)) => {
                scalars(*x, *y, self.flow).and_then(|(v, why)| fail(v, why))
            }
            (Shape::Bytes(x), Shape::Bytes(y)) => {
                self.bytes(x, y).and_then(|(v, why)| fail(v, why))
            }
            (Shape::List(x), Shape::List(y)) => {
                let inner = self.check(x, y)?;
                Some(wrap(inner, "[]".into(), |e| json!([e])))
            }
            (Shape::Map(x), Shape::Map(y)) => {
                let inner = self.check(x, y)?;
                Some(wrap(inner, "{}".into(), |e| json!({ "key": e })))
            }
            (Shape::Tuple(x), Shape::Tuple(y)) => self.tuples(ta, x, y),
            (Shape::Tuple(x), Shape::List(y)) => self.tuple_to_list(ta, x, y),
            (Shape::List(_), Shape::Tuple(y)) => {
                let v = if y.is_empty() {
                    json!([null])
                } else {
                    json!([])
                };
                fail(v, self.became("a list", &format!("a {}-tuple", y.len())))
            }
            (Shape::Record(x), Shape::Record(y)) => self.records(ta, x, y),
            (Shape::Record(x), Shape::Map(y)) => self.record_to_map(ta, x, y),
            (Shape::Map(x), Shape::Record(y)) => self.map_to_record(x, y),
            (Shape::Variant(x), Shape::Variant(y)) => self.variants(x, y),
            (Shape::Variant(x), Shape::Scalar(Scalar::String))
                if x.tagging == Tagging::External
                    && x.variants.iter().all(|c| c.payload.is_none()) =>
            {
                None
            }
            (Shape::Bytes(x), Shape::List(y)) => self.bytes_to_list(ta, x, y),
            (Shape::List(x), Shape::Bytes(_)) => self.list_to_bytes(ta, x),
            (a, b) => {
                // Different kinds of value: A's own example is never a value of B,
                // except where a string or an array form overlaps (handled above).
                fail(self.ex(ta), self.became(&kind(a), &kind(b)))
            }
        }
    }

    /// A tuple read as a list: every element must fit the list's item.
    fn tuple_to_list(
        &mut self,
        ta: &'a TypeRef,
        x: &[(&'a TypeRef, bool)],
        y: &'a TypeRef,
    ) -> Option<Incompat> {
        for (i, (e, null)) in x.iter().enumerate() {
            if *null {
                return fail(self.ex(ta), format!("element {i} may be null"));
            }
            if let Some(inner) = self.check(e, y) {
                return Some(self.in_tuple(ta, x, i, inner));
            }
        }
        None
    }

    /// A record read as a map: every field must fit the map's value.
    fn record_to_map(
        &mut self,
        ta: &'a TypeRef,
        x: &'a [Field],
        y: &'a TypeRef,
    ) -> Option<Incompat> {
        for f in x.iter() {
            if let Some(inner) = self.check(&f.ty, y) {
                let ex = self.ex(ta);
                return Some(wrap(inner, format!(".{}", f.name), |e| {
                    with_key(ex, &f.name, e)
                }));
            }
        }
        None
    }

    /// A map read as a record: no field may be required, and the map's
    /// value must fit every field.
    fn map_to_record(&mut self, x: &'a TypeRef, y: &'a [Field]) -> Option<Incompat> {
        if y.iter().any(|f| !f.nullable) {
            return fail(
                json!({}),
                self.became("a map", "a record with required fields"),
            );
        }
        for f in y.iter() {
            if let Some(inner) = self.check(x, &f.ty) {
                return Some(wrap(
                    inner,
                    format!(".{}", f.name),
                    |e| json!({ f.name.clone(): e }),
                ));
            }
        }
        None
    }

    /// Bytes read as a list: only output bytes (byte arrays) into a list of
    /// integers that hold 0..=255.
    fn bytes_to_list(&mut self, ta: &'a TypeRef, x: &Bytes, y: &'a TypeRef) -> Option<Incompat> {
        match self.flow {
            Flow::Input => fail(bytes_string_example(x), self.became("bytes", "a list")),
            Flow::Output => match resolve(self.b, y).0 {
                Shape::Scalar(s) if int_range(s).is_some_and(|(lo, hi)| lo <= 0 && hi >= 255) => {
                    None
                }
                _ => fail(self.ex(ta), self.became("bytes", "a list")),
            },
        }
    }

    /// A list read as bytes: only a list of integers within 0..=255.
    fn list_to_bytes(&mut self, ta: &'a TypeRef, x: &'a TypeRef) -> Option<Incompat> {
        match resolve(self.a, x).0 {
            Shape::Scalar(s) => match int_range(s) {
                Some((lo, hi)) if lo >= 0 && hi <= 255 => None,
                Some((lo, hi)) => {
                    let v = if hi > 255 { 256 } else { lo };
                    fail(
                        json!([int_value(v)]),
                        self.became("a list of integers", "bytes"),
                    )
                }
                None => fail(self.ex(ta), self.became("a list", "bytes")),
            },
            _ => fail(self.ex(ta), self.became("a list", "bytes")),
        }
    }

    fn bytes(&self, x: &Bytes, y: &Bytes) -> Option<(Value, String)> {
        let (sx, sy) = (x.size.filter(|&n| n > 0), y.size.filter(|&n| n > 0));
        match (sx, sy) {
            (Some(n), Some(m)) if n != m => {
                return Some((
                    zeros(n),
                    self.became(&format!("{n} bytes"), &format!("{m} bytes")),
                ));
            }
            (None, Some(m)) => {
                return Some((
                    zeros(m + 1),
                    self.became("any length", &format!("exactly {m} bytes")),
                ));
            }
            _ => {}
        }
        let enc = |b: &Bytes| b.encoding.as_deref().unwrap_or("hex").to_ascii_lowercase();
        if self.flow == Flow::Input && enc(x) != enc(y) {
            return Some((
                bytes_string_example(x),
                format!(
                    "the string form of bytes changed from {} to {}",
                    enc(x),
                    enc(y)
                ),
            ));
        }
        None
    }

    fn in_tuple(
        &self,
        ta: &TypeRef,
        x: &[(&TypeRef, bool)],
        i: usize,
        inner: Incompat,
    ) -> Incompat {
        let mut ex = self.ex(ta);
        if !matches!(ex, Value::Array(_)) {
            ex = Value::Array(x.iter().map(|(t, _)| self.ex(t)).collect());
        }
        wrap(inner, format!("[{i}]"), |e| {
            if let Value::Array(items) = &mut ex
                && let Some(slot) = items.get_mut(i)
            {
                *slot = e;
            }
            ex
        })
    }

    fn tuples(
        &mut self,
        ta: &'a TypeRef,
        x: &[(&'a TypeRef, bool)],
        y: &[(&'a TypeRef, bool)],
    ) -> Option<Incompat> {
        if x.len() != y.len() {
            return Some(Incompat {
                path: String::new(),
                example: self.ex(ta),
                why: self.became(
                    &format!("a {}-tuple", x.len()),
                    &format!("a {}-tuple", y.len()),
                ),
                ..Incompat::default()
            });
        }
        for (i, ((ea, na), (eb, nb))) in x.iter().zip(y).enumerate() {
            if *na && !*nb {
                let inner = Incompat {
                    path: String::new(),
                    example: Value::Null,
                    why: self.null_change(&format!("element {i}")),
                    ..Incompat::default()
                };
                return Some(self.in_tuple(ta, x, i, inner));
            }
            if let Some(inner) = self.check(ea, eb) {
                return Some(self.in_tuple(ta, x, i, inner));
            }
        }
        None
    }

    fn records(&mut self, ta: &'a TypeRef, x: &'a [Field], y: &'a [Field]) -> Option<Incompat> {
        for fb in y {
            let Some(fa) = x.iter().find(|f| f.name == fb.name) else {
                if fb.nullable {
                    continue;
                }
                let mut ex = self.ex(ta);
                if let Value::Object(map) = &mut ex {
                    map.shift_remove(&fb.name);
                }
                return Some(Incompat {
                    path: format!(".{}", fb.name),
                    example: ex,
                    why: match self.flow {
                        Flow::Input => {
                            format!("new required field `{}`: old values lack it", fb.name)
                        }
                        Flow::Output => format!(
                            "field `{}` is gone from new values and old readers require it",
                            fb.name
                        ),
                    },
                    ..Incompat::default()
                });
            };
            if fa.nullable && !fb.nullable {
                let ex = self.ex(ta);
                return Some(Incompat {
                    path: format!(".{}", fb.name),
                    example: with_key(ex, &fb.name, Value::Null),
                    why: self.null_change(&format!("field `{}`", fb.name)),
                    ..Incompat::default()
                });
            }
            if let Some(inner) = self.check(&fa.ty, &fb.ty) {
                let ex = self.ex(ta);
                return Some(wrap(inner, format!(".{}", fb.name), |e| {
                    with_key(ex, &fb.name, e)
                }));
            }
        }
        None
    }

    fn variants(&mut self, x: &'a Variant, y: &'a Variant) -> Option<Incompat> {
        for ca in &x.variants {
            let value = |payload: Option<Value>| case_value(x, ca, payload);
            let ex_payload = ca.payload.as_ref().map(|p| self.ex(p));
            if x.tagging != y.tagging {
                return Some(Incompat {
                    path: String::new(),
                    example: value(ex_payload),
                    why: "the enum's serde tagging changed".into(),
                    ..Incompat::default()
                });
            }
            if let Some(found) = self.shadowed(x, y, ca) {
                return Some(Incompat {
                    path: format!("<{}>", ca.name),
                    example: value(ex_payload),
                    why: found,
                    ..Incompat::default()
                });
            }
            let Some(cb) = y.variants.iter().find(|c| c.name == ca.name) else {
                return Some(Incompat {
                    path: format!("<{}>", ca.name),
                    example: value(ex_payload),
                    why: match self.flow {
                        Flow::Input => format!("case `{}` is gone", ca.name),
                        Flow::Output => {
                            format!("new case `{}`: old readers do not know it", ca.name)
                        }
                    },
                    ..Incompat::default()
                });
            };
            match (&ca.payload, &cb.payload) {
                (None, None) => {}
                (Some(pa), Some(pb)) => {
                    if let Some(inner) = self.check(pa, pb) {
                        return Some(wrap(inner, format!("<{}>", ca.name), |e| value(Some(e))));
                    }
                }
                _ => {
                    return Some(Incompat {
                        path: format!("<{}>", ca.name),
                        example: value(ex_payload),
                        why: format!("case `{}` gained or lost its payload", ca.name),
                        ..Incompat::default()
                    });
                }
            }
        }
        None
    }
}

impl<'a> Checker<'a> {
    /// For arguments of an untagged enum: a case of the new version that
    /// serde tries before `ca` (and did not before) and that accepts every
    /// value of `ca`, so old calls decode as that case and mean something else.
    fn shadowed(&mut self, x: &'a Variant, y: &'a Variant, ca: &'a VariantCase) -> Option<String> {
        if self.flow != Flow::Input
            || y.tagging != Tagging::Untagged
            || x.tagging != Tagging::Untagged
        {
            return None;
        }
        let ia = x.variants.iter().position(|c| c.name == ca.name)?;
        let ib = y.variants.iter().position(|c| c.name == ca.name)?;
        for cn in &y.variants[..ib] {
            if x.variants
                .iter()
                .position(|c| c.name == cn.name)
                .is_some_and(|j| j < ia)
            {
                continue;
            }
            let swallows = match (&ca.payload, &cn.payload) {
                (None, None) => true,
                (Some(pa), Some(pn)) => self.check(pa, pn).is_none(),
                _ => false,
            };
            if swallows {
                return Some(format!(
                    "untagged case `{}` now comes before `{}` and accepts all of its values: serde tries untagged cases in order, so such calls decode as `{}` and succeed with another meaning",
                    cn.name, ca.name, cn.name
                ));
            }
        }
        None
    }
}

fn kind(s: &Shape) -> String {
    match s {
        Shape::Scalar(s) => s.name().to_string(),
        Shape::Bytes(_) => "bytes".into(),
        Shape::List(_) => "a list".into(),
        Shape::Map(_) => "a map".into(),
        Shape::Tuple(e) => format!("a {}-tuple", e.len()),
        Shape::Record(_) => "a record".into(),
        Shape::Variant(_) => "an enum".into(),
        Shape::Unknown => "unchecked".into(),
    }
}

/// An incompatibility at the value itself: `example` fits A and not B, `why`.
fn fail(example: Value, why: String) -> Option<Incompat> {
    Some(Incompat {
        path: String::new(),
        example,
        why,
        ..Incompat::default()
    })
}

fn wrap(inner: Incompat, segment: String, f: impl FnOnce(Value) -> Value) -> Incompat {
    Incompat {
        path: segment + &inner.path,
        example: f(inner.example),
        why: inner.why,
        limit: inner.limit,
        exact: inner.exact,
    }
}

fn with_key(mut v: Value, key: &str, e: Value) -> Value {
    match &mut v {
        Value::Object(map) => {
            map.insert(key.to_string(), e);
            v
        }
        _ => json!({ key: e }),
    }
}

fn zeros(n: u64) -> Value {
    Value::Array(vec![json!(0); n.min(4096) as usize])
}

fn bytes_string_example(b: &Bytes) -> Value {
    let n = b.size.filter(|&n| n > 0).unwrap_or(1).min(4096) as usize;
    match b
        .encoding
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("hex") => json!("00".repeat(n)),
        Some("base58") => json!("1".repeat(n)),
        Some(_) => json!("0"),
    }
}

/// The two scalars' difference, as a value of `x` that `y` rejects (or
/// would silently change) and why.
fn scalars(x: Scalar, y: Scalar, flow: Flow) -> Option<(Value, String)> {
    use Scalar::*;
    if x == y {
        return None;
    }
    // Shown old → new whichever way the values flow.
    let arrow = match flow {
        Flow::Input => format!("{} → {}", x.name(), y.name()),
        Flow::Output => format!("{} → {}", y.name(), x.name()),
    };
    if let (Some((xl, xh)), Some((yl, yh))) = (int_range(x), int_range(y)) {
        if xl >= yl && xh <= yh {
            return None;
        }
        let v = if xh > yh { yh + 1 } else { yl - 1 };
        let what = if v < 0 && yl == 0 {
            "is negative"
        } else {
            "is out of range"
        };
        return Some((int_value(v), format!("{arrow}: {v} {what}")));
    }
    match (x, y) {
        (F32, F64) => None,
        (I32 | U32, F64) => None,
        (I32 | U32, F32) => Some((
            json!(16_777_217),
            format!("{arrow}: 16777217 is not exact in f32"),
        )),
        (I64 | U64, F32 | F64) => Some((
            json!(9_007_199_254_740_993u64),
            format!("{arrow}: 9007199254740993 is not exact in a float"),
        )),
        (F64, F32) => Some((json!(1e300), format!("{arrow}: 1e300 is out of f32 range"))),
        (F32 | F64, _) if y.is_integer() => {
            Some((json!(0.5), format!("{arrow}: 0.5 is not an integer")))
        }
        _ => Some((scalar_example(x), arrow)),
    }
}

fn scalar_example(s: Scalar) -> Value {
    match s {
        Scalar::Bool => json!(false),
        Scalar::String => json!("example"),
        Scalar::Unit => Value::Null,
        Scalar::F32 | Scalar::F64 => json!(0.5),
        _ => json!(0),
    }
}

/// A case of `v` on the wire, with `payload` as its value.
fn case_value(v: &Variant, c: &VariantCase, payload: Option<Value>) -> Value {
    match &v.tagging {
        Tagging::External => match payload {
            None => json!(c.name),
            Some(p) => json!({ c.name.clone(): p }),
        },
        Tagging::Internal { tag } => {
            let mut obj = match payload {
                Some(Value::Object(map)) => map,
                _ => serde_json::Map::new(),
            };
            obj.insert(tag.clone(), json!(c.name));
            Value::Object(obj)
        }
        Tagging::Adjacent { tag, content } => match payload {
            None => json!({ tag.clone(): c.name }),
            Some(p) => json!({ tag.clone(): c.name, content.clone(): p }),
        },
        Tagging::Untagged => payload.unwrap_or(Value::Null),
    }
}

/// One simple value of `t`: zeros, empty collections, the first enum case
/// that ends, nullable fields as null.
pub fn example(m: &Manifest, t: &TypeRef) -> Value {
    example_exact(m, t).0
}

/// [`example`], and whether it is faithful: false when a required field
/// recurses without end (no finite value exists) or the value would exceed
/// [`EXAMPLE_BUDGET`] (a part is then `null`, so it must not be shown as a
/// value of the type).
pub(crate) fn example_exact(m: &Manifest, t: &TypeRef) -> (Value, bool) {
    let mut ex = Example {
        m,
        budget: EXAMPLE_BUDGET,
        exact: true,
        path: Vec::new(),
        on_path: HashMap::new(),
    };
    let v = ex.value(t);
    (v, ex.exact)
}

struct Example<'m> {
    m: &'m Manifest,
    budget: usize,
    exact: bool,
    /// Named types being built, outermost first, and how often each is on it.
    path: Vec<&'m str>,
    on_path: HashMap<&'m str, usize>,
}

impl<'m> Example<'m> {
    fn value(&mut self, t: &'m TypeRef) -> Value {
        if self.budget == 0 || self.path.len() >= MAX_DEPTH as usize {
            self.exact = false;
            return Value::Null;
        }
        self.budget -= 1;
        let (shape, name) = resolve(self.m, t);
        let again = name.is_some_and(|n| self.on_path.get(n).is_some_and(|&c| c > 0));
        if let Some(n) = name {
            self.path.push(n);
            *self.on_path.entry(n).or_default() += 1;
        }
        let v = match shape {
            Shape::Scalar(s) => scalar_example(s),
            Shape::Bytes(b) => zeros(b.size.filter(|&n| n > 0).unwrap_or(1)),
            Shape::List(_) => json!([]),
            Shape::Map(_) => json!({}),
            Shape::Tuple(_) | Shape::Record(_) if again => {
                // A required field leads back here: no finite value exists.
                self.exact = false;
                Value::Null
            }
            Shape::Tuple(elements) => Value::Array(
                elements
                    .iter()
                    .map(|(e, null)| if *null { Value::Null } else { self.value(e) })
                    .collect(),
            ),
            Shape::Record(fields) => Value::Object(
                fields
                    .iter()
                    .map(|f| {
                        let v = if f.nullable {
                            Value::Null
                        } else {
                            self.value(&f.ty)
                        };
                        (f.name.clone(), v)
                    })
                    .collect(),
            ),
            Shape::Variant(v) => self.variant(v, again),
            Shape::Unknown => Value::Null,
        };
        if name.is_some()
            && let Some(n) = self.path.pop()
            && let Some(c) = self.on_path.get_mut(n)
        {
            *c -= 1;
        }
        v
    }

    /// The first case whose value ends (on a way back into the same enum,
    /// cases without a payload first).
    fn variant(&mut self, v: &'m Variant, again: bool) -> Value {
        let mut order: Vec<&VariantCase> = v.variants.iter().collect();
        if again {
            order.sort_by_key(|c| c.payload.is_some());
        }
        let mut first = None;
        for c in order {
            let exact = self.exact;
            self.exact = true;
            let payload = c.payload.as_ref().map(|p| self.value(p));
            let ok = self.exact;
            self.exact = exact;
            let value = case_value(v, c, payload);
            if ok {
                return value;
            }
            first.get_or_insert(value);
            if self.budget == 0 {
                break;
            }
        }
        self.exact = false;
        first.unwrap_or(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(s: Scalar) -> TypeRef {
        TypeRef::Scalar(s)
    }

    #[test]
    fn integer_widening_is_compatible_and_narrowing_has_an_example() {
        let m = Manifest::default();
        let [u32_, u64_, i64_, i32_] =
            [Scalar::U32, Scalar::U64, Scalar::I64, Scalar::I32].map(scalar);
        let mut c = Checker::new(&m, &m, Flow::Input);
        assert_eq!(c.check(&u32_, &u64_), None);
        assert_eq!(c.check(&u32_, &i64_), None);
        let i = c.check(&u64_, &u32_).unwrap();
        assert_eq!(i.example, json!(4_294_967_296u64));
        let i = c.check(&i32_, &u64_).unwrap();
        assert_eq!(i.example, json!(-1));
    }

    #[test]
    fn recursive_types_terminate() {
        let json = br#"{"schema_version":"wasm-abi/1","methods":[],"types":{
            "Node":{"kind":"record","fields":[{"name":"children","type":{"kind":"list","items":{"$ref":"Node"}}},{"name":"v","type":{"kind":"u32"}}]}}}"#;
        let json2 = br#"{"schema_version":"wasm-abi/1","methods":[],"types":{
            "Node":{"kind":"record","fields":[{"name":"children","type":{"kind":"list","items":{"$ref":"Node"}}},{"name":"v","type":{"kind":"u64"}}]}}}"#;
        let a = crate::abi::parse_manifest(json, &mut Vec::new()).unwrap();
        let b = crate::abi::parse_manifest(json2, &mut Vec::new()).unwrap();
        let t = TypeRef::Ref("Node".into());
        assert_eq!(Checker::new(&a, &b, Flow::Input).check(&t, &t), None);
        let i = Checker::new(&b, &a, Flow::Input).check(&t, &t).unwrap();
        assert_eq!(i.path, ".v");
        assert_eq!(i.example, json!({"children": [], "v": 4_294_967_296u64}));
    }

    #[test]
    fn an_unchecked_type_becoming_checked_gives_no_example() {
        // The old type accepted values calimcp never checked, so no value is
        // known to have been accepted: `0` for a string was a guess.
        let m = Manifest::default();
        let unknown = TypeRef::Unknown("u128".into());
        let i = Checker::new(&m, &m, Flow::Input)
            .check(&unknown, &scalar(Scalar::String))
            .unwrap();
        assert!(!i.exact, "{i:?}");
        // A checked old type still gives a value it accepted and the new refuses.
        let i = Checker::new(&m, &m, Flow::Input)
            .check(&scalar(Scalar::U32), &scalar(Scalar::String))
            .unwrap();
        assert!(i.exact);
        assert_eq!(i.example, json!(0));
    }
}
