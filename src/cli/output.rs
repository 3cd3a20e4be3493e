//! Everything the CLI writes: stdout results, stderr warnings and errors,
//! colour decisions. A closed stdout (`calimcp tools | head`) is not an error.

use std::fmt::Display;
use std::io::{IsTerminal, Write};

use owo_colors::OwoColorize;
use serde_json::Value;

use calimcp_core::error::{Code, Error, ErrorKind, ErrorLine};

/// `--color` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Output settings resolved once from the global flags and the environment.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ui {
    pub json: bool,
    pub quiet: bool,
    pub color_out: bool,
    pub color_err: bool,
}

fn env_allows_color() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var("TERM").map_or(true, |t| t != "dumb")
}

impl Ui {
    pub(crate) fn new(json: bool, quiet: bool, color: ColorChoice) -> Self {
        let pick = |tty: bool| match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => tty && env_allows_color(),
        };
        Ui {
            json,
            quiet,
            color_out: pick(std::io::stdout().is_terminal()) && !json,
            color_err: pick(std::io::stderr().is_terminal()),
        }
    }

    /// A warning on stderr, unless `--quiet`.
    pub(crate) fn warn(&self, message: impl Display) {
        if self.quiet {
            return;
        }
        let label = if self.color_err {
            "warning".yellow().bold().to_string()
        } else {
            "warning".into()
        };
        let message = calimcp_core::text::sanitize_line(&message.to_string());
        let _ = writeln!(std::io::stderr().lock(), "{label}: {message}");
    }

    /// A note on stderr (progress, the equivalent command), unless `--quiet`.
    pub(crate) fn note(&self, message: impl Display) {
        if !self.quiet {
            let _ = writeln!(std::io::stderr().lock(), "{message}");
        }
    }

    /// A status note on stderr, unless `--quiet`: text, or with `--json` one
    /// JSON line `{"note": …}`, so stderr holds JSON lines only.
    pub(crate) fn status(&self, message: impl Display) {
        if self.quiet {
            return;
        }
        if self.json {
            let line = NoteLine {
                note: &message.to_string(),
            };
            let text = serde_json::to_string(&line).unwrap_or_default();
            let _ = writeln!(std::io::stderr().lock(), "{text}");
        } else {
            self.note(message);
        }
    }

    /// Reports an error on stderr: human text, or one JSON line with `--json`
    /// ([`ErrorLine`]). Messages may quote manifest strings (service names,
    /// bundle paths), so control characters are removed here, whatever built
    /// the message.
    pub(crate) fn error(&self, err: &Error) {
        let line = ErrorLine::new(err);
        let mut stderr = std::io::stderr().lock();
        if self.json {
            let text = serde_json::to_string(&line).unwrap_or_default();
            let _ = writeln!(stderr, "{}", calimcp_core::text::json_inert(text));
            return;
        }
        let err = line.error;
        let label = if self.color_err {
            "error".red().bold().to_string()
        } else {
            "error".into()
        };
        let _ = writeln!(stderr, "{label}: {}", err.message);
        if let Some(hint) = &err.hint {
            let hint_label = if self.color_err {
                "hint".cyan().bold().to_string()
            } else {
                "hint".into()
            };
            let _ = writeln!(stderr, "  {hint_label}: {hint}");
        }
    }
}

/// A status note on stderr with `--json` ([`Ui::status`]).
#[derive(serde::Serialize, schemars::JsonSchema)]
pub(crate) struct NoteLine<'a> {
    /// What calimcp is doing or did (progress, a default it chose).
    pub note: &'a str,
}

/// The error `print` returns when stdout was closed early: exit quietly with 0.
pub(crate) fn is_broken_pipe(err: &Error) -> bool {
    err.code == Code::BrokenPipe
}

/// Writes `text` to stdout.
pub(crate) fn print(text: &str) -> calimcp_core::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                Error::new(ErrorKind::Internal, Code::BrokenPipe, "stdout was closed")
            } else {
                Error::internal(format!("cannot write to stdout: {e}"))
            }
        })
}

/// JSON and a newline on stdout: pretty on a terminal, compact otherwise (for
/// pipes, files and programs: smaller and faster; `| jq .` pretty-prints).
pub(crate) fn print_json(value: &(impl serde::Serialize + ?Sized)) -> calimcp_core::Result<()> {
    let text = if std::io::stdout().is_terminal() {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    };
    print(
        &(calimcp_core::text::json_inert(text.map_err(|e| Error::internal(e.to_string()))?) + "\n"),
    )
}

/// Compact JSON and a newline on stdout.
pub(crate) fn print_json_compact(
    value: &(impl serde::Serialize + ?Sized),
) -> calimcp_core::Result<()> {
    let text = serde_json::to_string(value).map_err(|e| Error::internal(e.to_string()))?;
    print(&(calimcp_core::text::json_inert(text) + "\n"))
}

/// `[view]` green, `[mut]` yellow, when colour is on.
pub(crate) fn paint_signature(signature: &str, color: bool) -> String {
    if !color {
        return signature.to_string();
    }
    if let Some(rest) = signature.strip_prefix("[view]") {
        format!("{}{rest}", "[view]".green())
    } else if let Some(rest) = signature.strip_prefix("[mut]") {
        format!("{}{rest}", "[mut]".yellow())
    } else {
        signature.to_string()
    }
}

pub(crate) fn dim(text: &str, color: bool) -> String {
    if color {
        text.dimmed().to_string()
    } else {
        text.to_string()
    }
}

pub(crate) fn bold(text: &str, color: bool) -> String {
    if color {
        text.bold().to_string()
    } else {
        text.to_string()
    }
}

/// A borderless table as text: no padding at the line starts or ends.
/// On a terminal, fits `table` to its width (comfy-table reads it), wrapping
/// the other columns and never the `keep` ones (names are never cut).
pub(crate) fn fit_to_terminal(table: &mut comfy_table::Table, keep: &[usize]) {
    if !std::io::stdout().is_terminal() {
        return;
    }
    table.set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    for &i in keep {
        if let Some(col) = table.column_mut(i) {
            col.set_constraint(comfy_table::ColumnConstraint::ContentWidth);
        }
    }
}

pub(crate) fn table_text(table: &comfy_table::Table) -> String {
    let mut out = String::new();
    for line in table.lines() {
        out.push_str(line.strip_prefix(' ').unwrap_or(&line).trim_end());
        out.push('\n');
    }
    out
}

/// Formats a value as [`JsonStream`] writes it at one nesting depth.
#[derive(Debug, Clone)]
pub(crate) struct Renderer {
    pretty: bool,
    indent: String,
}

impl Renderer {
    /// A `Value`, or a typed object written straight out (its keys strings,
    /// like a `Value`'s, so serialising it cannot fail).
    pub(crate) fn render(&self, value: &impl serde::Serialize) -> String {
        let text = if self.pretty {
            serde_json::to_string_pretty(value).map(|t| t.replace('\n', &self.indent))
        } else {
            serde_json::to_string(value)
        };
        calimcp_core::text::json_inert(text.unwrap_or_default())
    }
}

/// [`par_map`] for a listing of schemas under `budget`: `build(item, spent)`
/// gives a result and its [`MethodSchemas::size`](calimcp_core::mapping::MethodSchemas);
/// items are counted in order, and once the count has passed the budget each
/// further item is built spent. Workers learn it as they go; an item one of
/// them built in full after that point is built again, spent, so the output
/// is the same on any number of cores.
pub(crate) fn par_map_listing<T: Sync, R: Send>(
    items: &[T],
    budget: &mut calimcp_core::mapping::schema::SchemaBudget,
    build: impl Fn(&T, bool) -> (R, usize) + Sync,
    mut sink: impl FnMut(&T, R),
) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let spent = AtomicBool::new(budget.spent());
    let work = |item: &T| {
        let was = spent.load(Ordering::Relaxed);
        (build(item, was), was)
    };
    par_map(items, work, |item, ((result, size), was)| {
        let (result, size) = if !was && budget.spent() {
            build(item, true)
        } else {
            (result, size)
        };
        budget.add(size);
        spent.store(budget.spent(), Ordering::Relaxed);
        sink(item, result);
    });
}

/// Maps `items` with every core, handing each item and its result to `sink`
/// in item order. Workers take chunks as they go, so at most a few chunks wait.
pub(crate) fn par_map<T: Sync, R: Send>(
    items: &[T],
    map: impl Fn(&T) -> R + Sync,
    mut sink: impl FnMut(&T, R),
) {
    const CHUNK: usize = 64;
    // A second thread pays only from two full chunks on: below that, starting
    // it (and its allocator heap) costs more than it saves (BENCHMARKS.md).
    // Asked only then: the answer reads the cgroup's CPU quota (three files).
    let chunks = items.len() / CHUNK;
    let threads = if chunks < 2 {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(chunks))
    };
    if threads <= 1 {
        items.iter().for_each(|item| sink(item, map(item)));
        return;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Vec<R>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (tx, next, map) = (tx.clone(), &next, &map);
            scope.spawn(move || {
                loop {
                    let chunk = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(part) = items.chunks(CHUNK).nth(chunk) else {
                        break;
                    };
                    if tx.send((chunk, part.iter().map(map).collect())).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = std::collections::BTreeMap::new();
        let mut want = 0;
        for (index, results) in rx {
            pending.insert(index, results);
            while let Some(results) = pending.remove(&want) {
                let part = &items[want * CHUNK..];
                part.iter().zip(results).for_each(|(item, r)| sink(item, r));
                want += 1;
            }
        }
    });
}

/// Writes one JSON object or array to stdout item by item, so a large result
/// (every schema of a 5,000-method app) never has to exist in memory at once.
/// Pretty on a terminal (identical to `serde_json::to_string_pretty` of the
/// whole value), compact otherwise.
pub(crate) struct JsonStream {
    out: std::io::BufWriter<std::io::Stdout>,
    pretty: bool,
    /// One entry per open container: whether it has no item yet.
    open: Vec<bool>,
    error: Option<std::io::Error>,
}

impl Default for JsonStream {
    fn default() -> Self {
        Self::new()
    }
}

impl JsonStream {
    pub(crate) fn new() -> Self {
        JsonStream {
            // 16 KiB: each 4 KiB page of the buffer is a page fault the first
            // time it is written (~1.7 us each here), and a 64 KiB buffer was
            // filled in full by a 71 KB listing; four times the writes cost less.
            out: std::io::BufWriter::with_capacity(1 << 14, std::io::stdout()),
            pretty: std::io::stdout().is_terminal(),
            open: Vec::new(),
            error: None,
        }
    }

    fn raw(&mut self, text: &str) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(text.as_bytes())
        {
            self.error = Some(e);
        }
    }

    fn indent(&self) -> String {
        format!("\n{}", "  ".repeat(self.open.len()))
    }

    /// Before an item: the comma and, when pretty, the line break and indent.
    fn separate(&mut self) {
        if let Some(first) = self.open.last_mut() {
            let comma = !*first;
            *first = false;
            if comma {
                self.raw(",");
            }
            if self.pretty {
                let indent = self.indent();
                self.raw(&indent);
            }
        }
    }

    /// Opens `{` or `[` (as an item of the enclosing container, after any key).
    pub(crate) fn open(&mut self, bracket: char) {
        self.raw(&bracket.to_string());
        self.open.push(true);
    }

    /// Closes the innermost container with `}` or `]`.
    pub(crate) fn close(&mut self, bracket: char) {
        let empty = self.open.pop().unwrap_or(true);
        if self.pretty && !empty {
            let indent = self.indent();
            self.raw(&indent);
        }
        self.raw(&bracket.to_string());
    }

    /// Starts an object member: writes `"key": `; follow with `value` or `open`.
    pub(crate) fn key(&mut self, key: &str) {
        self.separate();
        let quoted = calimcp_core::text::json_inert(Value::String(key.to_string()).to_string());
        self.raw(&quoted);
        self.raw(if self.pretty { ": " } else { ":" });
    }

    /// Starts an array item; follow with `value` or `open`.
    pub(crate) fn item(&mut self) {
        self.separate();
    }

    /// How [`JsonStream::value`] would write `value` here; safe to call from any
    /// thread, so items can be rendered in parallel and written in order.
    pub(crate) fn renderer(&self) -> Renderer {
        Renderer {
            pretty: self.pretty,
            indent: self.indent(),
        }
    }

    /// Writes a value [`Renderer::render`] produced for this position.
    pub(crate) fn rendered(&mut self, text: &str) {
        self.raw(text);
    }

    /// The final newline and flush; a closed stdout becomes the quiet broken-pipe error.
    pub(crate) fn finish(mut self) -> calimcp_core::Result<()> {
        self.raw("\n");
        let result = match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        };
        result.map_err(|e| {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                Error::new(ErrorKind::Internal, Code::BrokenPipe, "stdout was closed")
            } else {
                Error::internal(format!("cannot write to stdout: {e}"))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::par_map;

    fn squares(n: usize) -> Vec<usize> {
        let items: Vec<usize> = (0..n).collect();
        let mut out = Vec::new();
        par_map(
            &items,
            |i| i * i,
            |&i, r| {
                assert_eq!(r, i * i, "each result comes with its own item");
                out.push(r);
            },
        );
        out
    }

    #[test]
    fn par_map_keeps_item_order_on_one_thread_and_on_several() {
        // 0 and 100 items stay on the calling thread; 1,000 are 16 chunks.
        for n in [0, 1, 100, 128, 1000] {
            assert_eq!(
                squares(n),
                (0..n).map(|i| i * i).collect::<Vec<_>>(),
                "{n} items"
            );
        }
    }
}
