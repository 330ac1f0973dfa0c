//! Command-line interface: argument parsing (clap) and dispatch to one module per subcommand.
//!
//! Exit status: 0 success, 2 usage or input error (bad expression, malformed file, illegal
//! choice), 1 internal failure. With `--json`, errors are printed as `{"schema":1,"error":...}`.

mod content;
mod dist;
mod encounter_arg;
mod fight;
mod odds;
mod odds_fight;
mod outfile;
mod output;
mod roll;
mod rulesets;
mod run;
mod serve;
mod sim;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

pub use output::{report_parse_error, CliError};

/// True when the command line asks for JSON (`--json` before any `--`), so that even an
/// argument-parsing error is reported as JSON.
pub fn wants_json(args: &[std::ffi::OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--json")
}

/// fray — one combat engine for tabletop role-playing games.
#[derive(Debug, Parser)]
#[command(name = "fray", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Roll a dice expression, e.g. `fray roll 4d6kh3`.
    Roll(roll::RollArgs),
    /// Exact probability distribution of a dice expression, e.g. `fray dist 3d6`.
    Dist(dist::DistArgs),
    /// Resolve an encounter: its `[script]`, and the default tactics for what no script answers,
    /// e.g. `fray fight examples/cnc/bench.toml`.
    Fight(fight::FightArgs),
    /// Exact odds of one attack, e.g. `fray odds FILE --attacker fighter-1 --target orc-1`.
    Odds(odds::OddsArgs),
    /// The rule systems fray knows.
    Rulesets(rulesets::RulesetsArgs),
    /// A ruleset's built-in content, e.g. `fray content cnc monsters` or `fray content cnc monster orc`.
    Content(content::ContentArgs),
    /// Run a fight live at the table: type dice and choices, undo, save, resume, e.g.
    /// `fray run examples/cnc/bench.toml`.
    Run(run::RunArgs),
    /// The web tracker's server: a GM link and one link per side, an HTTP/WebSocket API, e.g.
    /// `fray serve --addr 127.0.0.1:8080`.
    Serve(serve::ServeArgs),
    /// Monte Carlo simulation of an encounter, e.g. `fray sim examples/cnc/bench.toml -n 100000`.
    Sim(sim::SimArgs),
}

/// Runs the parsed command and turns its result into an exit status.
pub fn run(cli: Cli) -> ExitCode {
    let (result, json) = match cli.command {
        Command::Roll(args) => {
            let json = args.json;
            (roll::run(args), json)
        }
        Command::Dist(args) => {
            let json = args.json;
            (dist::run(args), json)
        }
        Command::Fight(args) => {
            let json = args.json;
            (fight::run(args), json)
        }
        Command::Odds(args) => {
            let json = args.json;
            (odds::run(args), json)
        }
        Command::Rulesets(args) => {
            let json = args.json;
            (rulesets::run(args), json)
        }
        Command::Content(args) => {
            let json = args.json;
            (content::run(args), json)
        }
        Command::Run(args) => (run::run(args), false),
        Command::Serve(args) => (serve::run(args), false),
        Command::Sim(args) => {
            let json = args.json;
            (sim::run(args), json)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => output::report_error(&error, json),
    }
}
