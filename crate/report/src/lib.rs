//! Answers that travel: a hotrow run as one self-contained HTML file, with no script and
//! no resource from elsewhere (inline CSS, inline SVG), readable with JavaScript off, in a
//! feed, printed, or attached to a design review. Every figure sits beside its numbers as
//! a table, so a screen reader and a search engine read them too.
//!
//! It is fed what `hotrow run --json` prints (the summary) and what `hotrow run --csv`
//! prints (the windows), so the CLI's report and the npm package's are the same bytes for
//! one config. The parts: `format.rs` (numbers and escaping), `windows.rs` (the windows
//! CSV read back), `svg.rs` (the figures), `sections.rs` (the report's parts).

mod curve;
pub mod format;
mod sections;
mod svg;
mod windows;

use serde_json::Value;
pub use windows::Windows;

/// The figures a report holds, by the name `--svg NAME` takes.
pub const FIGURES: [&str; 3] = ["throughput", "nodes", "heatmap"];

/// What to write: the whole page, or only its figures (`fragment`, to paste into a page);
/// with `remedies` (each standard remedy's label and its run's summary, or why it did not
/// run), the table of what each would lift it to.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub fragment: bool,
    pub remedies: Vec<RemedyRun>,
}

/// A standard remedy's label and its run's summary (as `run --json` prints it), or why it
/// did not run.
pub type RemedyRun = (String, Result<Value, String>);

/// hotrow's version, named in the header (the workspace's: the CLI's and the package's).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The page's own style: a readable column, tables beside figures, print without splits.
const STYLE: &str = "<style>body{font:15px/1.45 system-ui,sans-serif;color:#222;max-width:72rem;margin:1.5rem auto;padding:0 1rem}\
h1{font-size:1.4rem;margin:0 0 .3rem}h2{font-size:1.1rem;margin:1.6rem 0 .4rem}.config{color:#555;margin:0}.note{color:#555;font-size:.9em}\
code{font-size:.9em;overflow-wrap:anywhere}td code{white-space:nowrap}section>figure>svg{max-width:48rem}td.text{text-align:left}.headline{display:flex;flex-wrap:wrap;gap:.5rem 2rem;margin:.8rem 0}\
.headline dt{font-size:.8rem;color:#555}.headline dd{margin:0;font-size:1.2rem;font-weight:600}\
.hotrow-report section{break-inside:avoid;page-break-inside:avoid}.pair{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1rem;align-items:start}\
@media (max-width:48rem){.pair{grid-template-columns:1fr}}figure{margin:0}table{border-collapse:collapse;font-size:.85rem;width:100%}\
caption{text-align:left;font-weight:600;padding:.2rem 0}th,td{border-bottom:1px solid #ddd;padding:.15rem .4rem;text-align:right;vertical-align:top}\
th:first-child,td:first-child{text-align:left}.scroll{overflow-x:auto}@media print{body{margin:0;max-width:none}}</style>";

/// Every table of `html` in a box that scrolls sideways when the table is wider than the
/// screen (a phone's 390 px), instead of widening the page and cutting its last columns.
fn scrollable(html: &str) -> String {
    html.replace("<table>", "<div class=\"scroll\" tabindex=\"0\"><table>").replace("</table>", "</table></div>")
}

fn pair(title: &str, about: &str, figure: &str, table: &str) -> String {
    format!(
        "<section><h2>{}</h2><div class=\"pair\"><figure>{figure}<figcaption>{}</figcaption></figure>{table}</div></section>",
        format::escape(title),
        format::escape(about)
    )
}

/// The report as HTML: a whole page, or with `fragment` only its `<div class="hotrow-report">`.
pub fn html(summary: &Value, windows_csv: &str, options: &Options) -> Result<String, String> {
    if !summary.is_object() || !summary["config"].is_object() {
        return Err("the summary must be the object `hotrow run --json` prints".into());
    }
    let w = Windows::parse(windows_csv)?;
    let mut body = String::from("<div class=\"hotrow-report\">");
    body += &sections::header(summary, VERSION);
    let (figure, table) = sections::throughput(summary, &w);
    body += &pair(
        "Throughput over time",
        "The solid line is the throughput of each window; the dashed line is the bound the bottleneck set in it.",
        &figure,
        &table,
    );
    body += &format!("<section><h2>What holds it</h2>{}</section>", sections::holds(summary));
    if !options.remedies.is_empty() {
        body += &format!("<section><h2>What would lift it</h2>{}</section>", sections::remedies(summary, &options.remedies));
    }
    let (figure, table) = sections::nodes(summary);
    body += &pair("Load per data node", "Busy fraction of each data node's thread; the hot row's node in red.", &figure, &table);
    let (figure, table) = sections::heatmap(&w);
    body += &pair("Data nodes over time", "Each cell is one window of one data node.", &figure, &table);
    body += &format!("<section><h2>Hottest rows</h2>{}</section>", sections::hottest(summary));
    body += "</div>";
    let body = scrollable(&body);
    if options.fragment {
        return Ok(format!("{STYLE}{body}"));
    }
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>hotrow report: {}</title>{STYLE}</head><body>{body}</body></html>\n",
        format::escape(&sections::workload(summary))
    ))
}

/// One figure alone, as an SVG file: one of [`FIGURES`] (inside a page the namespace is
/// implied; a file of its own names it).
pub fn svg(name: &str, summary: &Value, windows_csv: &str) -> Result<String, String> {
    let w = Windows::parse(windows_csv)?;
    let figure = match name {
        "throughput" => sections::throughput(summary, &w).0,
        "nodes" => sections::nodes(summary).0,
        "heatmap" => sections::heatmap(&w).0,
        other => return Err(format!("--svg {other}: the figures are {}", FIGURES.join(", "))),
    };
    Ok(figure.replacen("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" ", 1) + "\n")
}

/// A sweep as one HTML page: the headline rate at each value of `field` (each point one
/// run: its value and its summary, in order), a mark where the bottleneck changes, and the
/// table of every point with its bottleneck.
pub fn sweep_html(field: &str, points: &[(Value, Value)], options: &Options) -> Result<String, String> {
    let Some((_, first)) = points.first() else { return Err("a sweep's report needs at least one point".into()) };
    let tpm = points.iter().any(|(_, s)| s["tpm"].as_f64().unwrap_or(0.0) > 0.0);
    let (column, label) = if tpm { ("tpm", "TPM") } else { ("transactionsPerSecond", "transactions/s") };
    let plain = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    let kind = |s: &Value| s["bottleneck"]["kind"].as_str().unwrap_or("").to_string();
    let mut curve_points = Vec::new();
    let mut table = format!(
        "<table><caption>each point: one run</caption><thead><tr><th>{}</th><th>{label}</th><th>bound transactions/s</th><th>bottleneck</th><th>digest</th></tr></thead><tbody>",
        format::escape(field)
    );
    for (i, (value, s)) in points.iter().enumerate() {
        let changed = i > 0 && kind(s) != kind(&points[i - 1].1);
        let words = hotrow::explain::Kind::named(&kind(s)).map_or("nothing committed", |k| k.label());
        let marked = i == 0 || changed;
        curve_points.push(curve::Point {
            label: plain(value),
            rate: s[column].as_f64().unwrap_or(0.0),
            changed_to: marked.then(|| words.to_string()),
        });
        let name = format::escape(s["bottleneck"]["name"].as_str().unwrap_or("nothing committed"));
        table += &format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"text\">{}</td><td><code>{}</code></td></tr>",
            format::escape(&plain(value)),
            format::grouped(s[column].as_f64().unwrap_or(0.0)),
            format::grouped(s["bottleneck"]["boundTransactionsPerSecond"].as_f64().unwrap_or(0.0)),
            if changed { format!("<strong>{name}</strong> (changes here)") } else { name },
            format::escape(s["digest"].as_str().unwrap_or(""))
        );
    }
    table += "</tbody></table>";
    let figure = curve::curve("sweep", &format!("{label} at each {field}, and where the bottleneck changes"), field, label, &curve_points);
    let c = &first["config"];
    let mut body = format!(
        "<div class=\"hotrow-report\"><header><h1>hotrow sweep: {} on {} data nodes x {} replicas, varying {}</h1>\
<p class=\"config\">{} points, one run each (seed {}, {} s measured after {} ms of warm-up); hotrow {VERSION}</p></header>",
        format::escape(&sections::workload(first)),
        c["dataNodes"],
        c["replicas"],
        format::escape(field),
        points.len(),
        c["seed"],
        format::coord(first["simulatedSeconds"].as_f64().unwrap_or(0.0)),
        c["warmupMs"]
    );
    body += &format!(
        "<section><h2>{} against {}</h2><figure>{figure}<figcaption>Each dot is one run; a dashed line marks where a different kind of \
resource holds the throughput.</figcaption></figure>{table}</section>",
        label,
        format::escape(field)
    );
    body += "</div>";
    let body = scrollable(&body);
    Ok(if options.fragment {
        format!("{STYLE}{body}")
    } else {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>hotrow sweep: {}</title>{STYLE}</head><body>{body}</body></html>\n",
            format::escape(field)
        )
    })
}
