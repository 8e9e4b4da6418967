//! Command line: prints the Report of a scenario (JSON file or share URL) as JSON.
//!
//! ```text
//! gpu-planner report FILE_OR_URL     report of one scenario
//! gpu-planner report --default       report of the default scenario
//! gpu-planner matrix                 one line per preset × task (fits / best card)
//! gpu-planner encode FILE            share-link payload of a scenario file
//! gpu-planner encode FILE --answer [en|zh]   …with the top of its answer, as the page's links
//! gpu-planner scenario               the default scenario as JSON (a template to edit)
//! gpu-planner accuracy [--json]      the engine against published reference numbers
//! gpu-planner accuracy --file CASES  the same for candidate cases (a JSON list like accuracy.json)
//! gpu-planner accuracy --scenario ID the scenario a case is measured with (to `report` it)
//! gpu-planner from-config FILE       a scenario (default workload) for a model's config.json
//! gpu-planner prerender              the default answer as static HTML (public/prerender.html)
//! gpu-planner page-data              the data file the page fetches (public/page-data.jsonl)
//! gpu-planner budget FILE [en|zh]    what the scenario's budget buys, rents, or buys and rents
//! ```

use gpu_planner::domain::format::Lang;
use gpu_planner::domain::{accuracy, model, plan, scenario::Task, share, Catalog, Scenario};
use std::io::Write as _;
use std::process::ExitCode;

fn read_scenario(arg: &str) -> Result<Scenario, String> {
    if arg == "--default" {
        return Ok(Scenario::default());
    }
    let looks_like_link = arg.contains("s=")
        || (arg.starts_with('v')
            && arg[1..].split('.').next().is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())));
    if looks_like_link {
        return share::decode(arg).map_err(|e| e.to_string());
    }
    let text = std::fs::read_to_string(arg).map_err(|e| format!("cannot read {arg}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{arg} is not a scenario: {e}"))
}

fn run(args: &[String]) -> Result<String, String> {
    let catalog = Catalog::embedded();
    match args.first().map(String::as_str) {
        Some("report") => {
            let arg = args.get(1).ok_or("usage: gpu-planner report FILE_OR_URL")?;
            let s = read_scenario(arg)?;
            let r = plan(&s, catalog).map_err(|e| e.to_string())?;
            serde_json::to_string_pretty(&r).map_err(|e| e.to_string())
        }
        Some("from-config") => {
            let arg = args.get(1).ok_or("usage: gpu-planner from-config config.json")?;
            let text = std::fs::read_to_string(arg).map_err(|e| format!("cannot read {arg}: {e}"))?;
            let read = gpu_planner::domain::config::read_config(&text).map_err(|e| format!("{arg}: {e}"))?;
            for n in &read.notes {
                eprintln!("note: {n}");
            }
            let s = Scenario { model: "custom".into(), custom_model: read.model, ..Scenario::default() };
            serde_json::to_string_pretty(&s).map_err(|e| e.to_string())
        }
        Some("budget") => {
            let arg = args.get(1).ok_or("usage: gpu-planner budget FILE [en|zh]")?;
            let s = read_scenario(arg)?;
            let l = if args.get(2).map(String::as_str) == Some("zh") { Lang::Zh } else { Lang::En };
            let r = plan(&s, catalog).map_err(|e| e.to_string())?;
            let a = gpu_planner::domain::budget::of(&s, &r).ok_or("the scenario has no budget (ownership.budget)")?;
            Ok(gpu_planner::domain::budget::lines(&a, s.money.currency, l).join("\n"))
        }
        // public/page-data.jsonl, the data file the page fetches (src/domain/page_data.rs).
        Some("page-data") => Ok(gpu_planner::domain::page_data::built_in().trim_end().to_string()),
        Some("prerender") => Ok(gpu_planner::ui::prerender::document().trim_end().to_string()),
        Some("scenario") => serde_json::to_string_pretty(&Scenario::default()).map_err(|e| e.to_string()),
        Some("encode") => {
            let arg = args.get(1).ok_or("usage: gpu-planner encode FILE [--answer [en|zh]]")?;
            let s = read_scenario(arg)?;
            let mut q = format!("?s={}", share::encode(&s));
            // The page's own links carry the top of the answer (`r=`, src/ui/prerender.rs).
            if args.get(2).map(String::as_str) == Some("--answer") {
                let l = if args.get(3).map(String::as_str) == Some("zh") { Lang::Zh } else { Lang::En };
                let r = plan(&s, catalog).map_err(|e| e.to_string())?;
                let snap = gpu_planner::ui::prerender::snapshot(&r, &s, l);
                if !snap.is_empty() {
                    q.push_str("&r=");
                    q.push_str(&snap);
                }
            }
            Ok(q)
        }
        Some("accuracy") if args.get(1).map(String::as_str) == Some("--scenario") => {
            let id = args.get(2).ok_or("usage: gpu-planner accuracy --scenario CASE_ID")?;
            let case = accuracy::cases().iter().find(|c| &c.id == id).ok_or(format!("no case {id}"))?;
            let s = accuracy::scenario(case)?;
            serde_json::to_string_pretty(&s).map_err(|e| e.to_string())
        }
        Some("accuracy") => accuracy_command(args, catalog),
        Some("matrix") => Ok(matrix(catalog)),
        _ => {
            Err("usage: gpu-planner report FILE_OR_URL | report --default | matrix | accuracy | from-config FILE | encode FILE | budget FILE | scenario | prerender | page-data"
                .into())
        }
    }
}

/// `accuracy [--file CASES | --json | --html]`: the engine against published numbers.
fn accuracy_command(args: &[String], catalog: &Catalog) -> Result<String, String> {
    let extra;
    let rows = if args.get(1).map(String::as_str) == Some("--file") {
        let arg = args.get(2).ok_or("usage: gpu-planner accuracy --file CASES.json")?;
        let text = std::fs::read_to_string(arg).map_err(|e| format!("cannot read {arg}: {e}"))?;
        extra = gpu_planner::domain::json::parse::<Vec<accuracy::Case>>(&text)
            .map_err(|e| format!("{arg} is not a list of cases: {e}"))?;
        accuracy::table_of(&extra, catalog)
    } else {
        accuracy::table(catalog)
    };
    if args.get(1).map(String::as_str) == Some("--json") {
        return gpu_planner::domain::json::write(&accuracy::shown(&rows), false).map_err(|e| e.to_string());
    }
    if args.get(1).map(String::as_str) == Some("--html") {
        return Ok(gpu_planner::ui::accuracy::page(&accuracy::shown(&rows), &accuracy::groups(&rows))
            .trim_end()
            .to_string());
    }
    let mut out = format!(
        "{:<46} {:>14} {:>14} {:>8} {:>5}  {:<6} source\n",
        "case", "published", "ours", "error", "tol", "within"
    );
    for r in &rows {
        let c = &r.case;
        out.push_str(&format!(
            "{:<46} {:>14} {:>14} {:>8} {:>4.0}%  {:<6} {}\n",
            c.id,
            format!("{} {}", c.published, c.unit),
            r.ours.map_or("-".into(), |o| format!("{o:.4}")),
            r.error.map_or("-".into(), |e| format!("{:+.1}%", e * 100.0)),
            c.tolerance * 100.0,
            match (&c.not_expressible, r.within) {
                (Some(_), _) => "n/e",
                (None, true) => "yes",
                (None, false) => "NO",
            },
            c.url
        ));
    }
    let (within, counted) = accuracy::score(&rows);
    let (_, all) = accuracy::headline(&rows);
    out.push_str(&format!(
        "{within} of {all} cases within tolerance ({counted} expressible; n/e = needs an input or feature the engine lacks, with the reason in the JSON)\n"
    ));
    out.push_str("role         kind           rows  within  lacks  median|err|  p90|err|\n");
    for g in accuracy::groups(&rows) {
        out.push_str(&format!(
            "{:<12} {:<14} {:>4}  {:>6}  {:>5}  {:>10.1}%  {:>7.1}%\n",
            format!("{:?}", g.role),
            format!("{:?}", g.kind),
            g.rows,
            g.within,
            g.lacking,
            g.median_abs_error * 100.0,
            g.p90_abs_error * 100.0
        ));
    }
    Ok(out)
}

/// One line per preset × task: how many cards fit and the best.
fn matrix(catalog: &Catalog) -> String {
    let mut out = String::new();
    for m in model::presets() {
        for task in Task::ALL {
            let s = Scenario { model: m.id.clone(), task, ..Scenario::default() };
            let line = match plan(&s, catalog) {
                Ok(r) => {
                    let fit = r.cards.iter().filter(|c| c.fits).count();
                    let best = r.cards.first().map_or("-".into(), |c| format!("{} x{}", c.gpu, c.gpus));
                    format!("{}\t{task:?}\t{fit}/{} cards fit\tbest: {best}", m.id, r.cards.len())
                }
                Err(e) => format!("{}\t{task:?}\terror: {e}", m.id),
            };
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            // A reader that stops early (`| head`) closes the pipe: that is not an error.
            let _ = writeln!(std::io::stdout(), "{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
