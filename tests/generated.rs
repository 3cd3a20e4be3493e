//! completions/, man/ and docs/reference/commands/ (the command reference in
//! Markdown, as gh generates its manual) are generated from the clap command
//! tree and committed. This test fails when they are stale; regenerate them
//! with `CALIMCP_UPDATE_GENERATED=1 cargo test --test generated`. So are the
//! JSON Schemas of the `--json` outputs in docs/json/.

mod support;

use std::collections::BTreeMap;
use std::path::Path;

const SHELLS: &[(&str, &str)] = &[
    ("bash", "calimcp.bash"),
    ("zsh", "_calimcp"),
    ("fish", "calimcp.fish"),
    ("elvish", "calimcp.elv"),
    ("powershell", "_calimcp.ps1"),
];

fn expected_completions() -> BTreeMap<String, Vec<u8>> {
    SHELLS
        .iter()
        .map(|(shell, file)| {
            let out = support::offline()
                .args(["completions", shell])
                .assert()
                .success()
                .get_output()
                .stdout
                .clone();
            (file.to_string(), out)
        })
        .collect()
}

fn expected_man_pages() -> BTreeMap<String, Vec<u8>> {
    let cmd = calimcp::cli::man_command();
    let tmp = tempfile::tempdir().unwrap();
    // clap_mangen prints the after-help text as one paragraph (EXTRA), which
    // runs its example and table lines together: the pages get it as
    // sections of their own instead (`after_help_sections`).
    clap_mangen::generate_to(without_after_help(cmd.clone()), tmp.path()).unwrap();
    let mut pages = read_dir(tmp.path());
    let mut commands = vec![("calimcp.1".to_string(), cmd.clone())];
    commands.extend(
        cmd.get_subcommands()
            .map(|sc| (format!("calimcp-{}.1", sc.get_name()), sc.clone())),
    );
    for (name, sc) in commands {
        let Some(page) = pages.get_mut(&name) else {
            continue;
        };
        let help = sc
            .get_after_long_help()
            .or(sc.get_after_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        let sections = after_help_sections(&help);
        let text = String::from_utf8(page.clone()).unwrap();
        let text = match text.find(".SH VERSION") {
            Some(at) => format!("{}{sections}{}", &text[..at], &text[at..]),
            None => text + &sections,
        };
        *page = text.into_bytes();
    }
    pages
}

/// `cmd` and its subcommands without after-help text.
fn without_after_help(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = cmd.after_help(None::<&str>).after_long_help(None::<&str>);
    for name in names {
        cmd = cmd.mut_subcommand(name, without_after_help);
    }
    cmd
}

/// The blocks of an after-help text: an `Examples:`, `Exit codes:` or
/// `Environment:` block as its title and the lines under it, any other
/// paragraph as a note (no title, the whole block).
fn after_help_blocks(help: &str) -> Vec<(Option<&'static str>, &str)> {
    help.split("\n\n")
        .map(str::trim_end)
        .filter(|b| !b.trim().is_empty())
        .map(|block| {
            let (first, rest) = block.split_once('\n').unwrap_or((block, ""));
            match first.trim() {
                "Examples:" | "Example:" => (Some("Examples"), rest),
                "Exit codes:" => (Some("Exit codes"), rest),
                "Environment:" => (Some("Environment"), rest),
                _ => (None, block),
            }
        })
        .collect()
}

/// An after-help text as man sections: `Examples:`, `Exit codes:` and
/// `Environment:` become EXAMPLES, EXIT STATUS and ENVIRONMENT, kept line
/// for line; other paragraphs are NOTES.
fn after_help_sections(help: &str) -> String {
    let mut out = String::new();
    let mut notes = Vec::new();
    for (title, text) in after_help_blocks(help) {
        let title = match title {
            Some("Examples") => "EXAMPLES",
            Some("Exit codes") => "EXIT STATUS",
            Some(_) => "ENVIRONMENT",
            None => {
                notes.push(text);
                continue;
            }
        };
        out.push_str(&format!(".SH \"{title}\"\n.nf\n"));
        for line in text.lines() {
            out.push_str(&roff_line(line));
            out.push('\n');
        }
        out.push_str(".fi\n");
    }
    if !notes.is_empty() {
        out.push_str(".SH NOTES\n");
        for block in notes {
            out.push_str(".PP\n");
            for line in block.lines() {
                out.push_str(&roff_line(line.trim()));
                out.push('\n');
            }
        }
    }
    out
}

/// One line of text for roff, printed as written.
fn roff_line(line: &str) -> String {
    let line = line.replace('\\', "\\\\").replace('-', "\\-");
    if line.starts_with(['.', '\'']) {
        format!("\\&{line}")
    } else {
        line
    }
}

fn read_dir(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .map(|p| {
                    (
                        p.file_name().unwrap().to_string_lossy().into_owned(),
                        std::fs::read(&p).unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn check(dir: &str, expected: BTreeMap<String, Vec<u8>>) {
    let path = support::root().join(dir);
    if std::env::var("CALIMCP_UPDATE_GENERATED").is_ok_and(|v| v == "1") {
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        for (name, bytes) in &expected {
            std::fs::write(path.join(name), bytes).unwrap();
        }
        return;
    }
    let actual = read_dir(&path);
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&actual),
        names(&expected),
        "{dir}/ has other files than the generator makes; run CALIMCP_UPDATE_GENERATED=1 cargo test --test generated"
    );
    for (name, bytes) in &expected {
        assert!(
            actual[name] == *bytes,
            "{dir}/{name} is stale; run CALIMCP_UPDATE_GENERATED=1 cargo test --test generated"
        );
    }
}

#[test]
fn completions_are_up_to_date() {
    check("completions", expected_completions());
}

#[test]
fn man_pages_are_up_to_date() {
    check("man", expected_man_pages());
}

#[test]
fn command_reference_pages_are_up_to_date() {
    check("docs/reference/commands", expected_command_pages());
}

/// docs/json/: the JSON Schema of each command's `--json` output, from the
/// types that print it (`calimcp::cli::json_schemas`).
#[test]
fn json_schemas_are_up_to_date() {
    let files = calimcp::cli::json_schemas::all()
        .into_iter()
        .map(|p| {
            let text = serde_json::to_string_pretty(&p.schema).unwrap() + "\n";
            (format!("{}.schema.json", p.name), text.into_bytes())
        })
        .collect();
    check("docs/json", files);
}

/// One page per command and subcommand, and an index (README.md, which a code
/// host shows for the directory), from the built clap tree: what `--help`
/// says, laid out as Markdown. Options the top level declares global are
/// described once, on calimcp.md.
fn expected_command_pages() -> BTreeMap<String, Vec<u8>> {
    let mut root = calimcp::cli::man_command();
    root.build();
    let globals: Vec<String> = root
        .get_arguments()
        .filter(|a| a.is_global_set())
        .map(|a| a.get_id().to_string())
        .collect();
    let mut pages = BTreeMap::new();
    let mut index = String::from(
        "# Command reference\n\n\
         Generated from calimcp's command-line definitions (the same source as `--help` and\n\
         the man pages in `man/`) by `tests/generated.rs`; do not edit by hand. After a\n\
         change to the command line: `CALIMCP_UPDATE_GENERATED=1 cargo test --test generated`.\n\n",
    );
    command_page(&root, &[], &globals, &mut pages, &mut index);
    pages.insert("README.md".to_string(), index.into_bytes());
    pages
}

fn command_page(
    cmd: &clap::Command,
    parents: &[&str],
    globals: &[String],
    pages: &mut BTreeMap<String, Vec<u8>>,
    index: &mut String,
) {
    let mut path: Vec<&str> = parents.to_vec();
    path.push(cmd.get_name());
    let title = path.join(" ");
    let file = format!("{}.md", path.join("-"));
    let about = cmd.get_about().map(|a| a.to_string()).unwrap_or_default();
    index.push_str(&format!(
        "{}- [`{title}`]({file}): {}\n",
        "  ".repeat(parents.len()),
        md_text(&about)
    ));
    let mut out = format!("# {title}\n\n");
    let long = cmd.get_long_about().or(cmd.get_about());
    if let Some(text) = long {
        out.push_str(&md_blocks(&text.to_string(), ""));
    }
    let usage = cmd.clone().render_usage().to_string();
    let usage = usage.trim_start_matches("Usage: ").trim_end();
    out.push_str(&format!("```text\n{usage}\n```\n\n"));
    let subs: Vec<&clap::Command> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .collect();
    if !subs.is_empty() {
        out.push_str("## Commands\n\n");
        for s in &subs {
            let about = s.get_about().map(|a| a.to_string()).unwrap_or_default();
            out.push_str(&format!(
                "- [`{title} {}`]({}-{}.md): {}\n",
                s.get_name(),
                path.join("-"),
                s.get_name(),
                md_text(&about)
            ));
        }
        out.push('\n');
    }
    let top = parents.is_empty();
    let args: Vec<&clap::Arg> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && (top || !globals.contains(&a.get_id().to_string())))
        .collect();
    for (heading, positional) in [("Arguments", true), ("Options", false)] {
        let group: Vec<&&clap::Arg> = args
            .iter()
            .filter(|a| a.is_positional() == positional)
            .collect();
        if group.is_empty() {
            continue;
        }
        out.push_str(&format!("## {heading}\n\n"));
        for a in group {
            out.push_str(&arg_item(a));
        }
    }
    if !top {
        out.push_str(
            "Global options (before or after the command) are described in [calimcp](calimcp.md#options).\n\n",
        );
    }
    let after = cmd
        .get_after_long_help()
        .or(cmd.get_after_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    out.push_str(&after_help_markdown(&after));
    pages.insert(file, (out.trim_end().to_string() + "\n").into_bytes());
    for s in subs {
        command_page(s, &path, globals, pages, index);
    }
}

/// An option or argument as a list item: its spelling, what `--help` says of
/// it, then its default, values and environment variable.
fn arg_item(a: &clap::Arg) -> String {
    let names: Vec<String> = a
        .get_value_names()
        .map(|v| v.iter().map(|n| n.to_string()).collect())
        .unwrap_or_else(|| vec![a.get_id().to_string().to_uppercase()]);
    let many = a.get_num_args().is_some_and(|n| n.max_values() > 1)
        || matches!(a.get_action(), clap::ArgAction::Append);
    let spelling = if a.is_positional() {
        let v = format!("<{}>{}", names.join("> <"), if many { "..." } else { "" });
        if a.is_required_set() {
            v
        } else {
            format!("[{v}]")
        }
    } else {
        let mut flags = Vec::new();
        if let Some(c) = a.get_short() {
            flags.push(format!("-{c}"));
        }
        if let Some(l) = a.get_long() {
            flags.push(format!("--{l}"));
        }
        let mut s = flags.join(", ");
        if a.get_action().takes_values() {
            s.push_str(&format!(" <{}>", names.join("> <")));
        }
        s
    };
    let help = a
        .get_long_help()
        .or(a.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    let body = md_blocks(&help, "  ");
    let mut item = format!("- `{spelling}`");
    let body = body.trim();
    match body.split_once("\n\n") {
        _ if body.is_empty() => item.push('\n'),
        None => item.push_str(&format!(": {body}\n")),
        Some((first, rest)) if !first.starts_with("```") => {
            item.push_str(&format!(": {first}\n\n  {rest}\n"));
        }
        _ => item.push_str(&format!("\n\n  {body}\n")),
    }
    let mut facts = Vec::new();
    let aliases: Vec<String> = a
        .get_visible_aliases()
        .unwrap_or_default()
        .iter()
        .map(|l| format!("`--{l}`"))
        .collect();
    if !aliases.is_empty() {
        facts.push(format!("alias {}", aliases.join(", ")));
    }
    let values: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| match v.get_help() {
            Some(h) => format!("`{}` ({})", v.get_name(), md_text(&h.to_string())),
            None => format!("`{}`", v.get_name()),
        })
        .collect();
    if !values.is_empty() && a.get_action().takes_values() {
        facts.push(format!("values: {}", values.join(", ")));
    }
    if a.get_action().takes_values()
        && !a.is_hide_default_value_set()
        && !a.get_default_values().is_empty()
    {
        let d: Vec<String> = a
            .get_default_values()
            .iter()
            .map(|v| format!("`{}`", v.to_string_lossy()))
            .collect();
        facts.push(format!("default {}", d.join(", ")));
    }
    if let Some(env) = a.get_env().filter(|_| !a.is_hide_env_set()) {
        facts.push(format!("environment `{}`", env.to_string_lossy()));
    }
    if !facts.is_empty() {
        item.push_str(&format!("\n  ({})\n", facts.join("; ")));
    }
    item.push('\n');
    item
}

/// An after-help text as sections: `Examples:`, `Exit codes:` and
/// `Environment:` blocks kept line for line, other paragraphs as notes.
fn after_help_markdown(help: &str) -> String {
    let mut out = String::new();
    let mut notes = String::new();
    for (title, text) in after_help_blocks(help) {
        let Some(title) = title else {
            notes.push_str(&md_blocks(text, ""));
            continue;
        };
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.strip_prefix("  ").unwrap_or(l))
            .collect();
        out.push_str(&format!(
            "## {title}\n\n```text\n{}\n```\n\n",
            lines.join("\n")
        ));
    }
    if !notes.is_empty() {
        out.push_str(&format!("## Notes\n\n{notes}"));
    }
    out
}

/// Help text as Markdown paragraphs, each line prefixed with `indent`: a
/// paragraph whose lines are laid out (indented, or a list) is kept as
/// written in a text block; prose is escaped so that `<VALUE>` and `*` show.
fn md_blocks(text: &str, indent: &str) -> String {
    let mut out = String::new();
    for block in text
        .split("\n\n")
        .map(str::trim_end)
        .filter(|b| !b.trim().is_empty())
    {
        let laid_out = block
            .lines()
            .any(|l| l.starts_with("  ") || l.starts_with("- ") || l.starts_with("* "));
        if laid_out {
            out.push_str(&format!("{indent}```text\n"));
            for l in block.lines() {
                out.push_str(&format!("{indent}{l}\n"));
            }
            out.push_str(&format!("{indent}```\n\n"));
        } else {
            let joined: Vec<String> = block.lines().map(|l| md_text(l.trim())).collect();
            out.push_str(&format!(
                "{indent}{}\n\n",
                joined.join(&format!("\n{indent}"))
            ));
        }
    }
    out
}

/// One line of prose for Markdown: `<`, `>` and `*` outside code spans are
/// escaped (so `<APP>` shows and nothing turns into emphasis).
fn md_text(line: &str) -> String {
    let mut out = String::new();
    for (i, part) in line.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(part);
        } else {
            out.push_str(
                &part
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
                    .replace('*', "\\*"),
            );
        }
    }
    out
}

/// Every environment variable the code reads is in `calimcp --help` (and so
/// in the man page's ENVIRONMENT section).
#[test]
fn every_environment_variable_is_documented() {
    let help = String::from_utf8(
        support::offline()
            .arg("--help")
            .assert()
            .success()
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    let mut missing = Vec::new();
    let mut stack = vec![support::root().join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for prefix in ["\"CALIMCP_", "\"CALIMERO_"] {
                for (at, _) in text.match_indices(prefix) {
                    let name: String = text[at + 1..]
                        .chars()
                        .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                        .collect();
                    if !help.contains(&name) && !missing.contains(&name) {
                        missing.push(name);
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "not in `calimcp --help`: {missing:?}");
}

/// Issue 22.7: every option of every man page has its description (the
/// global ones were empty), and calimcp(1) lists the environment once, in
/// ENVIRONMENT, line for line (a second copy in EXTRA ran its lines together).
#[test]
fn man_pages_describe_every_option_and_list_the_environment_once() {
    for (name, page) in expected_man_pages() {
        let page = String::from_utf8(page).unwrap();
        assert!(!page.contains(".SH EXTRA"), "{name}: {page}");
        // An option entry (`.TP` then the flag line) is followed by text, not by the next entry.
        let lines: Vec<&str> = page.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            if *l == ".TP" && lines.get(i + 1).is_some_and(|f| f.starts_with("\\fB\\-")) {
                let next = lines.get(i + 2).copied().unwrap_or_default();
                assert!(
                    !next.is_empty() && !next.starts_with(".TP") && !next.starts_with(".SH"),
                    "{name}: {} has no description",
                    lines[i + 1]
                );
            }
        }
        if name != "calimcp.1" {
            assert!(!page.contains("ENVIRONMENT"), "{name}");
        }
    }
    let pages = expected_man_pages();
    let top = String::from_utf8(pages["calimcp.1"].clone()).unwrap();
    assert_eq!(top.matches("CALIMERO_NODE_URL ").count(), 1, "{top}");
    assert_eq!(top.matches(".SH \"ENVIRONMENT\"").count(), 1, "{top}");
    assert!(top.contains("Machine\\-readable output"), "{top}");
    let describe = String::from_utf8(pages["calimcp-describe.1"].clone()).unwrap();
    assert!(
        describe.contains(".SH \"EXAMPLES\"\n.nf\n  calimcp describe examples/kv\\-store\n"),
        "{describe}"
    );
}

/// Issue 22.15: the static bash script leaves a path or name argument to
/// bash's file-name completion (it inserted the `-` every flag starts with
/// after `describe `), still completes flags after a `-`, and a fixed list
/// of values (`completions SHELL`) still comes from the script.
#[test]
fn static_bash_completion_offers_paths_for_app_arguments() {
    let script = support::root().join("completions/calimcp.bash");
    let run = |words: &[&str]| -> String {
        let cword = words.len() - 1;
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let prog = format!(
            "source '{}'; COMP_WORDS=({}); COMP_CWORD={cword}; _calimcp calimcp '{}' '{}'; echo \"${{#COMPREPLY[@]}}:${{COMPREPLY[*]}}\"",
            script.display(),
            quoted.join(" "),
            words[cword],
            words[cword - 1],
        );
        let out = std::process::Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &prog])
            .output()
            .expect("bash");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    for cmd in ["describe", "schema", "tools", "diff", "watch", "use"] {
        assert_eq!(
            run(&["calimcp", cmd, ""]),
            "0:",
            "{cmd} <TAB> is left to file names"
        );
    }
    assert_eq!(run(&["calimcp", "describe", "--js"]), "1:--json");
    assert_eq!(run(&["calimcp", "desc"]), "1:describe");
    assert!(run(&["calimcp", "completions", ""]).contains("bash"));
}
