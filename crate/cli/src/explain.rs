//! The "What holds it" and "Hottest rows" sections of `hotrow run`: the bottleneck and
//! the bound it sets, the next ceiling, the busiest resources, and who waits for whom.

use hotrow::{Config, Summary};
use serde_json::Value;
use std::fmt::Write;

/// Transactions per second, with its 95% interval's half-width `h` when it has one, in the
/// run's headline unit too (TPM for DBT2); `*` when the batches were correlated.
fn rate(s: &Summary, tps: f64, h: Option<&hotrow::intervals::Interval>) -> String {
    let flag = if h.is_some_and(|i| i.lag1 > hotrow::intervals::LAG1_LIMIT) { "*" } else { "" };
    let hw = h.map(|i| i.half_width);
    let tps_text = with_interval(tps, hw, "transactions/s");
    if s.tpm > 0.0 && s.transactions_per_second > 0.0 {
        let per = s.tpm / s.transactions_per_second;
        format!("{tps_text}{flag} transactions/s ({}{flag} TPM)", with_interval(tps * per, hw.map(|h| h * per), "TPM"))
    } else {
        format!("{tps_text}{flag} transactions/s")
    }
}

pub use hotrow_report::format::grouped;

use hotrow_report::format::{percent, with_interval};

pub fn render(w: &mut String, s: &Summary) {
    let _ = writeln!(w, "\n  What holds it");
    let Some(b) = &s.bottleneck else {
        let _ = writeln!(w, "    nothing committed yet: no bottleneck to name");
        return;
    };
    let offered = b.kind == hotrow::explain::Kind::Offered;
    // The offered load is not busy: it is achieved, or not.
    let (how, verdict) = match (offered, b.utilization) {
        (true, u) if u >= 0.97 => ("achieved", "the cluster keeps up"),
        (true, _) => ("achieved", "the cluster does not keep up with all of it"),
        (false, u) if u >= 0.9 => ("busy", "saturated: it sets the throughput"),
        (false, _) => ("busy", "the tightest bound, not saturated"),
    };
    let _ = writeln!(w, "    bottleneck    {}", b.name);
    let intervals = s.bound_intervals.as_ref();
    let bound = rate(s, b.bound_transactions_per_second, intervals.and_then(|i| i.bound.as_ref()));
    let _ = writeln!(w, "                  {} {how}, bound {bound} ({verdict})", percent(b.utilization));
    if let (Some(grants), Some(ceiling)) = (b.grants_per_second, b.ceiling_grants_per_second) {
        let _ =
            writeln!(w, "                  {} grants/s against its own ceiling 1 / hold = {} grants/s", grouped(grants), grouped(ceiling));
    }
    if let Some(n) = &s.next_ceiling {
        let next = rate(s, n.transactions_per_second, intervals.and_then(|i| i.next_ceiling.as_ref()));
        let _ = writeln!(w, "    next ceiling  {next} with {} relieved,", n.relieved);
        let _ = writeln!(w, "                  held then by {}", n.held_by);
    }
    if let Some(i) = intervals {
        let correlated = [i.bound, i.next_ceiling].iter().flatten().any(|x| x.lag1 > hotrow::intervals::LAG1_LIMIT);
        let note = if correlated { "; *: batch figures correlated, too narrow: run longer" } else { "" };
        let key = if i.bound.is_some() { "±: " } else { "" };
        for line in wrap(&format!("{key}{}{note}", i.method), 84) {
            let _ = writeln!(w, "                  {line}");
        }
    }
    if let Some(d) = &s.deadlocks {
        for c in &d.cycles {
            let _ = writeln!(w, "    deadlock      {} of the timeouts:", percent(c.share));
            for line in wrap(&c.text, 84) {
                let _ = writeln!(w, "                  {line}");
            }
        }
    }
    let _ = writeln!(w, "    busiest       busy  blocked  queued  bound/s       resource");
    for r in &s.resources {
        let _ = writeln!(
            w,
            "                  {:>4}  {:>7}  {:>6}  {:>12}  {}",
            percent(r.utilization),
            percent(r.blocked_fraction),
            percent(r.queued_fraction),
            grouped(r.bound_transactions_per_second),
            r.name
        );
    }
    let _ = writeln!(w, "    (blocked: its holders waited for other locks or ids; queued: for busy threads)");
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

pub fn hottest_rows(w: &mut String, s: &Summary) {
    if s.hottest_rows.is_empty() {
        return;
    }
    let _ = writeln!(w, "\n  hottest rows             busy   grants/s    waits/s  mean wait us  who waits for whom");
    for r in &s.hottest_rows {
        let row = match &r.counter_of {
            Some(of) => format!("{} ({of})", r.table),
            None => format!("{} {}", r.table, r.key),
        };
        let first = r.waits.first().map_or(String::new(), |x| format!("{} waits for {} ({})", x.waiter, x.holder, percent(x.share)));
        let _ = writeln!(
            w,
            "  {:<22} {:>6} {:>10} {:>10} {:>13}  {first}",
            row,
            percent(r.lock_busy_fraction),
            grouped(r.grants_per_second),
            grouped(r.waits_per_second),
            grouped(r.mean_wait_us)
        );
        for x in r.waits.iter().skip(1).take(2) {
            let _ = writeln!(w, "  {:<69}  {} waits for {} ({})", "", x.waiter, x.holder, percent(x.share));
        }
        if r.counted_seconds < s.simulated_seconds * 0.999 {
            let _ = writeln!(
                w,
                "  {:<69}  (first tracked {:.2} s before the end of {:.2} s: a lower bound)",
                "", r.counted_seconds, s.simulated_seconds
            );
        }
    }
}

/// Each standard remedy for the bottleneck, run from the start with `base` (the run's
/// config JSON) changed as the remedy says: its label and what the run gave (or why not).
pub fn run_remedies(
    base: &Value,
    s: &Summary,
    run: impl Fn(Config) -> Result<Summary, String>,
) -> Vec<(hotrow::explain::Remedy, Result<Summary, String>)> {
    hotrow::explain::remedies(&s.config, s.bottleneck.as_ref(), s.deadlocks.as_ref())
        .into_iter()
        .map(|r| {
            let mut v = base.clone();
            let Value::Object(m) = &mut v else { unreachable!("a config is an object") };
            let set: Result<(), String> = r.set.iter().try_for_each(|(field, value)| {
                hotrow::config::set_dotted(m, field, value.clone()).map_err(|e| format!("cannot be set: {e}"))
            });
            let outcome = set.and_then(|_| Config::from_json(&v).map_err(|e| e.to_string())).and_then(&run);
            (r, outcome)
        })
        .collect()
}

/// `hotrow run --remedies`: each standard remedy for the bottleneck, run from the start
/// with `base` (the run's config JSON) changed as the remedy says, against the run.
pub fn remedies(base: &Value, s: &Summary, run: impl Fn(Config) -> Result<Summary, String>) -> String {
    let mut o = String::new();
    let w = &mut o;
    let Some(b) = &s.bottleneck else { return o };
    let _ = writeln!(w, "\n  What would lift it (each remedy run from the start, the same seed)");
    let list = run_remedies(base, s, run);
    if list.is_empty() {
        let _ = writeln!(w, "    no standard remedy for {}", b.name);
        return o;
    }
    let warned: Vec<String> = list.iter().filter_map(|(r, _)| Some(format!("{}: {}", r.label, r.warning.as_ref()?))).collect();
    let _ = writeln!(w, "    {:<58} {:>26} {:>7}  bottleneck then", "remedy", "throughput", "x");
    let _ = writeln!(w, "    {:<58} {:>26} {:>7}  {}", "(as run)", rate(s, s.transactions_per_second, None), "1.00", b.name);
    for (r, outcome) in list {
        let label = if r.warning.is_some() { format!("{} (*)", r.label) } else { r.label };
        match outcome {
            Ok(t) => {
                let then = t.bottleneck.as_ref().map_or("", |b| b.name.as_str());
                let ratio = t.transactions_per_second / s.transactions_per_second.max(1e-9);
                let _ = writeln!(w, "    {:<58} {:>26} {:>7.2}  {then}", label, rate(&t, t.transactions_per_second, None), ratio);
            }
            Err(e) if e.starts_with("cannot be set") => {
                let _ = writeln!(w, "    {:<58} {e}", label);
            }
            Err(e) => {
                let _ = writeln!(w, "    {:<58} failed: {e}", label);
            }
        }
    }
    for text in warned {
        let _ = writeln!(w, "    (*) {text}");
    }
    o
}
