//! `hotrow report`: a run as one HTML file that needs no JavaScript (crate/report), or one
//! of its figures as SVG, written to a file or standard output.

use std::process::ExitCode;

/// Writes the report of a run whose summary and windows are given.
pub fn write(summary: &hotrow::Summary, windows: &[hotrow::Window], out: Option<&str>, fragment: bool, svg: Option<&str>) -> ExitCode {
    let summary = serde_json::to_value(summary).expect("the summary serialises");
    let windows = hotrow::catalog::windows_csv(windows);
    let options = hotrow_report::Options { fragment };
    let text = match svg {
        Some(name) => hotrow_report::svg(name, &summary, &windows),
        None => hotrow_report::html(&summary, &windows, &options),
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => return crate::bad_input(&e),
    };
    match out {
        None | Some("-") => print!("{text}"),
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("error: {path}: cannot be written: {e}");
                return ExitCode::from(1);
            }
            eprintln!("hotrow: wrote {path}");
        }
    }
    ExitCode::SUCCESS
}
