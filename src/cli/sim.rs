//! `fray sim FILE [-n RUNS] [--seed S] [--threads T] [--json] [--csv FILE] [--plot FILE.svg]
//! [--target-ci W] [--vary SPEC]… [--max-rounds R]`: plays an encounter many times with the
//! default tactics and reports win rates with 95% Wilson intervals, draws, rounds, survivors,
//! damage and casualties; with `--vary`, a table of variants. The report goes to stdout only once
//! every run has finished (a failed run leaves no half report and no CSV file). See docs/sim.md.

use super::outfile::{self, OutputFile};
use super::{encounter_arg, fight, output, CliError};
use fray_engine::{AnyEncounter, Library, MAX_FILE_BYTES};
use fray_sim::csv::CsvWriter;
use fray_sim::progress::Progress;
use fray_sim::report::{self, Context};
use fray_sim::rows::RunRows;
use fray_sim::sweep::{self, SweepContext, VariantResult};
use fray_sim::{vary, SimError, SimOptions, SimResult, Stats, Stop};
use std::fs::File;
use std::io::BufWriter;
use std::sync::atomic::AtomicBool;

/// Runs when `-n` is not given.
const DEFAULT_RUNS: u64 = 10_000;
/// Runs cap when `--target-ci` is given without `-n`.
const DEFAULT_RUNS_WITH_TARGET: u64 = 10_000_000;

/// Arguments of `fray sim`.
#[derive(Debug, clap::Args)]
pub struct SimArgs {
    /// The encounter file (TOML).
    pub file: String,
    /// Fights to play (the most, with --target-ci) [default: 10000, or 10000000 with --target-ci].
    #[arg(short = 'n', long = "runs", value_name = "RUNS")]
    pub runs: Option<u64>,
    /// Base seed: run i plays with dice seed splitmix64(S ^ i·0x9e3779b97f4a7c15). Random if omitted.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads [default: the number of cores]. The report does not depend on it.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Print the report as JSON (schema 1, see docs/sim.md).
    #[arg(long)]
    pub json: bool,
    /// Write one CSV row per run (seed, winner, rounds, …) to FILE, streamed as runs finish.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<String>,
    /// Write an SVG picture of the rounds histogram and the survivors distribution.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
    /// Stop once every side's 95% win-rate interval is narrower than W (e.g. 0.02).
    #[arg(long, value_name = "W")]
    pub target_ci: Option<f64>,
    /// Sweep a setting: `orc.count=4..12`, `max_rounds=10,20,50` (repeat to combine).
    #[arg(long, value_name = "SPEC")]
    pub vary: Vec<String>,
    /// Round limit; a fight that reaches it is a stalemate [default: the file's, else 100].
    #[arg(long, value_name = "R")]
    pub max_rounds: Option<u32>,
}

fn sim_error(e: SimError) -> CliError {
    if e.is_input_error() {
        CliError::Input(e.to_string())
    } else {
        CliError::Internal(e.to_string())
    }
}

/// The CSV file: written to a temporary file, renamed over `path` only once the simulation has
/// finished (or was interrupted); a failed run removes the temporary file and nothing else.
struct CsvFile {
    path: String,
    output: OutputFile,
    writer: Option<CsvWriter<BufWriter<File>>>,
}

impl CsvFile {
    fn create(path: &str, sides: Vec<String>, with_variant: bool) -> Result<CsvFile, CliError> {
        let io = |e: std::io::Error| {
            sim_error(SimError::Output {
                path: path.to_string(),
                message: e.to_string(),
            })
        };
        let output = OutputFile::create(path).map_err(io)?;
        let file = output.writer().map_err(io)?;
        let writer = CsvWriter::new(BufWriter::new(file), sides, with_variant).map_err(io)?;
        Ok(CsvFile {
            path: path.to_string(),
            output,
            writer: Some(writer),
        })
    }

    fn write(&mut self, rows: &RunRows, variant: &str) -> Result<(), SimError> {
        match self.writer.as_mut() {
            Some(w) => w.write(rows, variant).map_err(|e| SimError::Output {
                path: self.path.clone(),
                message: e.to_string(),
            }),
            None => Ok(()),
        }
    }

    fn finish(mut self) -> Result<(), CliError> {
        let io = |e: std::io::Error| {
            sim_error(SimError::Output {
                path: self.path.clone(),
                message: e.to_string(),
            })
        };
        if let Some(w) = self.writer.take() {
            w.finish().map_err(io)?;
        }
        self.output.commit().map_err(io)
    }
}

/// One encounter to simulate, with its label in a sweep.
struct Job {
    label: String,
    settings: Vec<(String, vary::Value)>,
    encounter: AnyEncounter,
}

/// Reads the file and makes every variant, checking them all before anything runs.
fn variants(args: &SimArgs) -> Result<Vec<Job>, CliError> {
    let flags = args
        .vary
        .iter()
        .map(|spec| vary::parse(spec))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| sim_error(e.into()))?;
    let text = fray_engine::input::read_file_limited(&args.file, MAX_FILE_BYTES)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.file)))?;
    let library = Library::embedded()
        .map_err(|e| CliError::Internal(format!("built-in content is broken: {e}")))?;
    // The file itself must load before its variants are made.
    AnyEncounter::from_text(&args.file, &text, &library)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let doc = vary::parse_document(&args.file, &text).map_err(|e| sim_error(e.into()))?;
    vary::check(&doc, &flags).map_err(|e| sim_error(e.into()))?;
    let list = vary::variants(&flags).map_err(|e| sim_error(e.into()))?;
    let mut jobs = Vec::with_capacity(list.len());
    for variant in list {
        let edited = vary::apply(&doc, &flags, &variant).map_err(|e| sim_error(e.into()))?;
        let name = format!("{} [{}]", args.file, variant.label);
        let encounter = AnyEncounter::from_text(&name, &edited, &library).map_err(|e| {
            sim_error(SimError::Variant {
                variant: variant.label.clone(),
                message: e.to_string(),
            })
        })?;
        jobs.push(Job {
            label: variant.label,
            settings: variant.settings,
            encounter,
        });
    }
    Ok(jobs)
}

/// Runs `fray sim`.
pub fn run(args: SimArgs) -> Result<(), CliError> {
    let seed = args.seed.unwrap_or_else(fight::fresh_seed);
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(fray_sim::MAX_THREADS))
    });
    let runs = args.runs.unwrap_or(if args.target_ci.is_some() {
        DEFAULT_RUNS_WITH_TARGET
    } else {
        DEFAULT_RUNS
    });
    let options = SimOptions {
        runs,
        seed,
        threads,
        max_rounds: args.max_rounds,
        target_ci: args.target_ci,
        keep_rows: args.csv.is_some(),
    };
    options.validate().map_err(sim_error)?;
    let sweeping = !args.vary.is_empty();
    if let Some(csv) = &args.csv {
        outfile::check_distinct(csv, "--csv", &[(&args.file, "encounter file")])?;
    }
    if let Some(plot) = &args.plot {
        outfile::check_distinct(plot, "--plot", &[(&args.file, "encounter file")])?;
        if let Some(csv) = &args.csv {
            outfile::check_distinct(plot, "--plot", &[(csv, "--csv file")])?;
            if plot == csv {
                return Err(CliError::Input(format!(
                    "--plot {plot} is the --csv file; choose another output file"
                )));
            }
        }
    }
    if sweeping && args.plot.is_some() {
        return Err(CliError::Input(
            "--plot draws one encounter; it cannot be combined with --vary".to_string(),
        ));
    }
    let jobs = if sweeping {
        variants(&args)?
    } else {
        vec![Job {
            label: String::new(),
            settings: Vec::new(),
            encounter: encounter_arg::load(&args.file)?,
        }]
    };
    let sides: Vec<String> = jobs
        .first()
        .map(|j| {
            j.encounter
                .roster()
                .sides
                .iter()
                .map(|s| s.key.clone())
                .collect()
        })
        .unwrap_or_default();
    let stop = fray_sim::interrupt::install().map_err(sim_error)?;
    let mut csv = match &args.csv {
        Some(path) => Some(CsvFile::create(path, sides, sweeping)?),
        None => None,
    };
    let played = play_all(&jobs, &options, stop, csv.as_mut());
    let results = match played {
        Ok(results) => results,
        Err(e) => {
            // Dropping the CSV removes its temporary file; the target is untouched.
            drop(csv);
            return Err(sim_error(e));
        }
    };
    if let Some(csv) = csv {
        csv.finish()?;
    }
    let out = if sweeping {
        let ctx = SweepContext {
            file: &args.file,
            vary: &args.vary,
            seed,
            requested_runs: runs,
            max_rounds_flag: args.max_rounds,
            target_ci: args.target_ci,
            planned: jobs.len(),
        };
        if args.json {
            format!("{}\n", sweep::json(&ctx, &results))
        } else {
            sweep::text(&ctx, &results)
        }
    } else {
        let Some(single) = results.first() else {
            return Err(CliError::Internal("no simulation was run".to_string()));
        };
        let ctx = Context {
            file: &args.file,
            encounter: &single.encounter,
            seed,
            requested_runs: runs,
            max_rounds_flag: args.max_rounds,
            target_ci: args.target_ci,
            replayable: true,
        };
        if let Some(path) = &args.plot {
            let title = single.encounter.name();
            let svg = fray_sim::plot::svg(&single.result.stats, single.encounter.roster(), title);
            OutputFile::create(path)
                .and_then(|f| f.write_all_and_commit(svg.as_bytes()))
                .map_err(|e| {
                    sim_error(SimError::Output {
                        path: path.clone(),
                        message: e.to_string(),
                    })
                })?;
        }
        if args.json {
            format!("{}\n", report::json(&ctx, &single.result))
        } else {
            report::text(&ctx, &single.result)
        }
    };
    let interrupted = results.iter().any(|r| r.result.stop == Stop::Interrupted);
    output::print(&out)?;
    if interrupted {
        // The partial report is out; the exit status says it is partial (see docs/sim.md).
        return Err(CliError::Interrupted(fray_sim::interrupt::EXIT_STATUS));
    }
    Ok(())
}

/// Plays every job in turn (a Ctrl-C stops the current one and skips the rest).
fn play_all(
    jobs: &[Job],
    options: &SimOptions,
    stop: &AtomicBool,
    mut csv: Option<&mut CsvFile>,
) -> Result<Vec<VariantResult>, SimError> {
    let progress = Progress::new(options.runs.saturating_mul(jobs.len() as u64));
    let mut results = Vec::with_capacity(jobs.len());
    let mut done_before = 0u64;
    for job in jobs {
        progress.label(&job.label);
        let mut on_chunk = |stats: &Stats, rows: Option<&RunRows>| -> Result<(), SimError> {
            progress.set(done_before + stats.runs);
            match (csv.as_deref_mut(), rows) {
                (Some(csv), Some(rows)) => csv.write(rows, &job.label),
                _ => Ok(()),
            }
        };
        let result: SimResult =
            match fray_sim::simulate(&job.encounter, options, stop, &mut on_chunk) {
                Ok(r) => r,
                Err(e) => {
                    progress.finish();
                    return Err(e);
                }
            };
        done_before += options.runs;
        let interrupted = result.stop == Stop::Interrupted;
        results.push(VariantResult {
            label: job.label.clone(),
            settings: job.settings.clone(),
            encounter: job.encounter.clone(),
            result,
        });
        if interrupted {
            break;
        }
    }
    progress.finish();
    Ok(results)
}
