//! The rules `diff` applies: stable ids, levels, what each detects. The table of rules in
//! docs/reference/diff.md is this table (tests/diff.rs checks it).

/// How much a finding matters to a CI gate, most severe last.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Info,
    Warning,
    Breaking,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warning => "warning",
            Level::Breaking => "breaking",
        }
    }
}

/// A rule: its stable id, the level its findings have, what it detects.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub id: &'static str,
    pub level: Level,
    pub what: &'static str,
}

const fn rule(id: &'static str, level: Level, what: &'static str) -> Rule {
    Rule { id, level, what }
}

use Level::{Breaking, Info, Warning};

/// Every rule `diff` applies. Ids never change meaning; new rules get new ids.
/// Where a rule's level depends on the release (state changes with or without
/// a declared migration), the table gives the level without one.
pub const RULES: &[Rule] = &[
    rule(
        "service-removed",
        Breaking,
        "a service of a multi-service app is gone",
    ),
    rule("service-added", Info, "a new service"),
    rule("method-removed", Breaking, "a method is gone"),
    rule("method-added", Info, "a new method"),
    rule(
        "method-view-to-mutation",
        Breaking,
        "a view became a mutation: read-only agents lose the tool, callers now change state",
    ),
    rule("method-mutation-to-view", Info, "a mutation became a view"),
    rule(
        "tool-renamed",
        Warning,
        "the method's MCP tool name changed (slug, collision suffix, length cap)",
    ),
    rule(
        "tool-name-reused",
        Breaking,
        "a tool name that called one method now calls another (e.g. `get-x` added next to `get_x`)",
    ),
    rule(
        "xcall-removed",
        Breaking,
        "other contexts can no longer xcall a method (`xcall_callable` dropped, or the module now gates xcalls and it is not marked)",
    ),
    rule("xcall-added", Info, "other contexts may now xcall a method"),
    rule(
        "xcall-gate-removed",
        Warning,
        "the module no longer marks any method `xcall_callable`, so the node stops gating xcalls: a method no other context could reach is open to any in the namespace",
    ),
    rule(
        "xcall-callers-narrowed",
        Breaking,
        "a method open to any app by xcall became `same_app` (its `xcall_callers`, or a module now gated): xcalls from other apps are refused",
    ),
    rule(
        "xcall-callers-widened",
        Warning,
        "a `same_app` method is open to any app by xcall (`xcall_callers` became `any_in_namespace`, or its module lost its last xcall mark, so the node stops gating)",
    ),
    rule(
        "handler-removed",
        Breaking,
        "a method is no longer an event `handler`: the node stops running it on events",
    ),
    rule(
        "handler-added",
        Warning,
        "a method became an event `handler`: the node now runs it on events",
    ),
    rule(
        "name-duplicated",
        Breaking,
        "NEW declares a parameter, record field or enum case name twice",
    ),
    rule("init-removed", Warning, "the `init` method is gone"),
    rule("init-added", Info, "an `init` method appeared"),
    rule(
        "init-params-changed",
        Warning,
        "`init` no longer accepts the arguments it did (context creation only)",
    ),
    rule(
        "param-added-required",
        Breaking,
        "a new parameter that must be given",
    ),
    rule("param-added-optional", Info, "a new nullable parameter"),
    rule(
        "param-removed",
        Breaking,
        "a parameter is gone (a rename shows as removed + added)",
    ),
    rule(
        "param-became-required",
        Breaking,
        "a nullable parameter is no longer nullable",
    ),
    rule("param-became-optional", Info, "a parameter became nullable"),
    rule(
        "param-type-changed",
        Breaking,
        "a parameter no longer accepts a value it accepted",
    ),
    rule(
        "param-type-widened",
        Info,
        "a parameter accepts more values than before",
    ),
    rule(
        "result-type-changed",
        Breaking,
        "a result may be a value old readers do not expect",
    ),
    rule(
        "result-type-narrowed",
        Info,
        "a result takes fewer values than before",
    ),
    rule(
        "result-became-nullable",
        Breaking,
        "a result may now be null",
    ),
    rule(
        "result-became-non-nullable",
        Info,
        "a result is no longer null",
    ),
    rule("event-removed", Breaking, "an event is no longer emitted"),
    rule("event-added", Info, "a new event"),
    rule(
        "event-payload-changed",
        Breaking,
        "an event payload may be a value old watchers do not expect",
    ),
    rule(
        "event-payload-narrowed",
        Info,
        "an event payload takes fewer values than before",
    ),
    rule(
        "state-identity-downgrade",
        Breaking,
        "an identity-gated state field became plain or was dropped (UNSAFE_IDENTITY_DOWNGRADE)",
    ),
    rule(
        "state-field-changed",
        Breaking,
        "a stored state type reads differently by position (names ignored): a nested field added, removed or retyped, an enum case removed or reordered, an Option added; the path points at the change; warning when a migration is declared",
    ),
    rule(
        "state-field-removed",
        Breaking,
        "a top-level state field is gone: the stored bytes still carry it; warning when a migration is declared",
    ),
    rule(
        "state-field-added",
        Breaking,
        "a top-level state field appended or inserted: the stored bytes end before it (or shift); warning when a migration is declared",
    ),
    rule(
        "state-field-moved",
        Breaking,
        "a top-level state field changed position: it reads another field's bytes; warning when a migration is declared",
    ),
    rule(
        "state-field-renamed",
        Warning,
        "a stored field (or enum case) renamed in place: borsh stores no names, the state still reads",
    ),
    rule(
        "state-enum-case-added",
        Warning,
        "a case appended to an enum used in stored state: old values keep their index",
    ),
    rule(
        "state-layout-same",
        Info,
        "a stored type changed but reads the same bytes with the same meaning: UnorderedMap ↔ SortedMap, UnorderedSet ↔ SortedSet (same layout and merge), a field of zero bytes (`()`) added or removed",
    ),
    rule(
        "state-type-reinterpreted",
        Info,
        "a stored `String` became `Vec<u8>` (also as a set item): the same borsh, every string is valid bytes, so every stored value reads; the reverse is breaking (`state-field-changed`: borsh checks UTF-8)",
    ),
    rule(
        "comparison-limit-reached",
        Breaking,
        "types nest deeper than calimcp compares (512): that part is unchecked and reported instead of passing",
    ),
    rule(
        "state-root-missing",
        Warning,
        "one version declares no state root, so state cannot be compared",
    ),
    rule(
        "state-version-not-bumped",
        Breaking,
        "state changed but state_version did not: the node swaps code only",
    ),
    rule(
        "state-migration-missing",
        Breaking,
        "state_version went up by one without a migration from the old version: the upgrade gate rejects it",
    ),
    rule(
        "state-version-skipped",
        Breaking,
        "state_version went up by more than one: the upgrade gate rejects it",
    ),
    rule(
        "state-version-lowered",
        Breaking,
        "state_version went down: the upgrade gate rejects it",
    ),
    rule(
        "state-migrations-differ",
        Breaking,
        "services migrate with different methods in one release: the upgrade gate rejects it",
    ),
    rule(
        "state-migration",
        Info,
        "the node will run a declared migration",
    ),
    rule(
        "app-version-not-bumped",
        Breaking,
        "a breaking change while the app's version (both known) did not get a new major (0.x: minor)",
    ),
    rule(
        "method-doc-changed",
        Info,
        "a method's documentation (its tool description) changed",
    ),
    rule(
        "schema-changed",
        Info,
        "the JSON Schema an agent sees changed while the ABI types did not",
    ),
];

/// The table entry of `id`.
pub fn rule_by_id(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}
