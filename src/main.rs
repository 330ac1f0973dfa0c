//! `fray`: the command-line front end. Each subcommand lives in its own module under `cli/`.
#![forbid(unsafe_code)]

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match cli::Cli::try_parse_from(&args) {
        Ok(parsed) => cli::run(parsed),
        Err(error) => cli::report_parse_error(&error, cli::wants_json(&args)),
    }
}
