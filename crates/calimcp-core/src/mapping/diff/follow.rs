//! Following a type through `$ref`s and aliases to what it comes to, the one
//! walk both the wire comparison ([`super::compat`]) and the stored-state
//! comparison ([`super::state`]) start from; each reads the end its own way.

use crate::abi::*;

/// Where a chain of `$ref`s and aliases ends.
pub(super) enum End<'m> {
    /// An inline type (never a [`TypeRef::Ref`]).
    Inline(&'m TypeRef),
    /// A named type's definition (never an alias).
    Def(&'m TypeDefKind),
    /// A reference to a name the type table does not hold.
    Dangling,
}

/// Follows `$ref`s and aliases from `t` and hands each end to `read`, which
/// gives what the type is, or another type to go on with (a CRDT cell's
/// inner type). Returns that and the last type name met on the way. The
/// walk takes at most one step more than the type table has entries (an
/// alias chain without a cycle is no longer); past that it is a cycle, and
/// `cycle` is returned.
pub(super) fn follow<'m, S>(
    m: &'m Manifest,
    t: &'m TypeRef,
    cycle: S,
    mut read: impl FnMut(End<'m>) -> Result<S, &'m TypeRef>,
) -> (S, Option<&'m str>) {
    let mut t = t;
    let mut name = None;
    for _ in 0..=m.types.len() + 1 {
        let end = match t {
            TypeRef::Ref(n) => {
                name = Some(n.as_str());
                match m.types.get(n).map(|d| &d.kind) {
                    Some(TypeDefKind::Alias(target)) => {
                        t = target;
                        continue;
                    }
                    Some(kind) => End::Def(kind),
                    None => End::Dangling,
                }
            }
            inline => End::Inline(inline),
        };
        match read(end) {
            Ok(s) => return (s, name),
            Err(inner) => t = inner,
        }
    }
    (cycle, name)
}
