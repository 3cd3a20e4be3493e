//! Name resolution: which app does the user mean?
//!
//! In order: an exact application id; an exact package (several signers of one
//! package are ambiguous); then, together, a trailing run of whole package
//! segments (case-insensitive: `kv-store`, `calimero.kv-store`), the bundle's
//! metadata name (case-insensitive) and the app's tool slug (for an app
//! without package, a prefix of its id of at least 6 characters, as its tool
//! names have it).

use calimcp_core::abi::App;
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::mapping::names;
use calimcp_core::text::{sanitize_line, similarity};

fn trailing_segments_match(package: &str, query: &str) -> bool {
    let (p, q) = (package.to_ascii_lowercase(), query.to_ascii_lowercase());
    p == q || p.ends_with(&format!(".{q}"))
}

/// Whether `query` is the slug of an app without package: a prefix of its
/// id's letters and digits, lowercased, of at least 6 characters.
fn id_prefix_matches(id: &str, query: &str) -> bool {
    query.len() >= 6
        && query
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && names::id_prefix(id, query.len()) == query
}

/// Describes an app in lists of candidates.
pub fn label(app: &App) -> String {
    let mut s = sanitize_line(app.package_or_id());
    if let Some(v) = &app.version {
        s.push_str(&format!(" {}", sanitize_line(v)));
    }
    s.push_str(&format!(
        " (id {}, from {})",
        sanitize_line(&app.id),
        sanitize_line(&app.source)
    ));
    s
}

/// Resolves `query` among `apps` to an index.
pub fn resolve(apps: &[App], query: &str) -> Result<usize> {
    let ids: Vec<usize> = (0..apps.len())
        .filter(|&i| calimcp_node::ids::same(&apps[i].id, query))
        .collect();
    if let [one] = ids[..] {
        return Ok(one);
    }
    let exact: Vec<usize> = (0..apps.len())
        .filter(|&i| apps[i].package.as_deref() == Some(query))
        .collect();
    match exact.len() {
        1 => return Ok(exact[0]),
        n if n > 1 => {
            return Err(ambiguous(
                apps,
                query,
                &exact,
                " (published by several signers)",
            ));
        }
        _ => {}
    }
    let loose: Vec<usize> = (0..apps.len())
        .filter(|&i| {
            let app = &apps[i];
            app.package
                .as_deref()
                .is_some_and(|p| trailing_segments_match(p, query))
                || app
                    .name
                    .as_deref()
                    .is_some_and(|n| n.eq_ignore_ascii_case(query))
                || names::app_slug(app.package_or_id()) == query
                || (app.package.is_none() && id_prefix_matches(&app.id, query))
        })
        .collect();
    match loose.len() {
        1 => Ok(loose[0]),
        0 => Err(unknown(apps, query)),
        _ => Err(ambiguous(apps, query, &loose, "")),
    }
}

fn ambiguous(apps: &[App], query: &str, candidates: &[usize], why: &str) -> Error {
    let list: Vec<String> = candidates
        .iter()
        .map(|&i| format!("\n  {}", label(&apps[i])))
        .collect();
    Error::input(
        Code::AmbiguousApp,
        format!(
            "`{}` matches several apps{why}:{}",
            sanitize_line(query),
            list.concat()
        ),
    )
    .with_hint("pass the full package or the application id")
}

fn unknown(apps: &[App], query: &str) -> Error {
    let q = sanitize_line(query);
    if apps.is_empty() {
        return Error::input(Code::UnknownApp, format!("no app named `{q}`: no apps were found"))
            .with_hint("pass a path to an abi.json, .wasm, .mpk or bundle directory, or add --apps DIR (or CALIMCP_APPS)");
    }
    // Score each app by its closest name (package, trailing segment, metadata name,
    // slug) and suggest its package.
    let lower = query.to_ascii_lowercase();
    let mut scored: Vec<(f64, &str)> = apps
        .iter()
        .map(|a| {
            let mut names = vec![
                a.package_or_id().to_string(),
                names::app_slug(a.package_or_id()),
            ];
            names.extend(
                a.package
                    .as_deref()
                    .and_then(|p| p.rsplit('.').next())
                    .map(str::to_string),
            );
            names.extend(a.name.clone());
            let best = names
                .iter()
                .map(|n| similarity(&lower, &n.to_ascii_lowercase()))
                .fold(0.0, f64::max);
            (best, a.package_or_id())
        })
        .filter(|(s, _)| *s >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let listing: Vec<String> = apps
        .iter()
        .map(|a| sanitize_line(a.package_or_id()))
        .collect();
    Error::input(Code::UnknownApp, format!("no app named `{q}`")).with_hint(match scored.first() {
        Some((_, s)) => format!(
            "did you mean `{}`? Known apps: {}",
            sanitize_line(s),
            listing.join(", ")
        ),
        None => format!("known apps: {}", listing.join(", ")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(package: &str, id: &str, name: Option<&str>) -> App {
        App {
            package: Some(package.into()),
            id: id.into(),
            name: name.map(Into::into),
            ..App::default()
        }
    }

    #[test]
    fn resolves_by_id_package_segment_and_name() {
        let apps = [
            app("com.calimero.kv-store", "aaa", None),
            app("com.acme.kv-store-pro", "bbb", Some("Mero Docs")),
        ];
        assert_eq!(resolve(&apps, "bbb").unwrap(), 1);
        assert_eq!(resolve(&apps, "com.calimero.kv-store").unwrap(), 0);
        assert_eq!(resolve(&apps, "KV-Store").unwrap(), 0);
        assert_eq!(resolve(&apps, "calimero.kv-store").unwrap(), 0);
        assert_eq!(resolve(&apps, "mero docs").unwrap(), 1);
        assert_eq!(resolve(&apps, "kv_store").unwrap(), 0);
        // whole segments only: "store" is not a segment of either package
        assert_eq!(resolve(&apps, "store").unwrap_err().code, Code::UnknownApp);
    }

    #[test]
    fn an_app_without_package_answers_to_its_id_prefix() {
        let shared = App {
            id: "9ZLdiwB8rxjdffg2raj5sp3veyxhnzwstj45sm2ejx".into(),
            ..App::default()
        };
        let apps = [app("com.a.notes", "aaa", None), shared];
        assert_eq!(resolve(&apps, "9zldiw").unwrap(), 1);
        assert_eq!(resolve(&apps, "9zldiwb8").unwrap(), 1);
        assert_eq!(resolve(&apps, "9zldi").unwrap_err().code, Code::UnknownApp);
        assert_eq!(resolve(&apps, "9zldix").unwrap_err().code, Code::UnknownApp);
    }

    #[test]
    fn ambiguity_and_suggestions() {
        let apps = [
            app("com.a.notes", "aaa", None),
            app("com.b.notes", "bbb", None),
        ];
        let err = resolve(&apps, "notes").unwrap_err();
        assert_eq!(err.code, Code::AmbiguousApp);
        assert!(err.message.contains("com.a.notes") && err.message.contains("com.b.notes"));
        let err = resolve(&apps, "com.a.notez").unwrap_err();
        assert!(err.hint.unwrap().contains("did you mean `com.a.notes`"));
        let signers = [
            app("com.a.notes", "aaa", None),
            app("com.a.notes", "bbb", None),
        ];
        assert!(
            resolve(&signers, "com.a.notes")
                .unwrap_err()
                .message
                .contains("several signers")
        );
    }
}
