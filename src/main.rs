//! `fray`: the command-line front end. Each subcommand lives in its own module under `cli/`.
#![forbid(unsafe_code)]

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    cli::run(args)
}
