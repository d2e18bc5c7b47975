//! `sweep`: balance curves — Caesar's win rate over a grid of rule-set
//! values and scenario tweaks, every point over the same seeds.

use std::process::ExitCode;

use caesar_workbench::sim::questions::sweep::{self, Axis};

use super::args::{RunArgs, check_outputs, dry_run_done, games_times};
use super::simulate::with_progress;
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
#[command(mut_arg("variant", |a| a.help("The rule set every point starts from: a variant file or a built-in name")))]
pub struct SweepArgs {
    /// FIELD=VALUES: a rule-set field (vp_to_win=8..12, hand_size=5,6,7,
    /// caesar_player1_first_turn=true,false, road_limits.major=3,4), a block's
    /// starting strength (strength:caesar:Legio 13=2,3,4) or its city
    /// (deploy:pompey:Legio 3=Brundisium,Roma). Give --set again for more
    /// axes; every combination is a point. A..B includes both ends.
    #[arg(long = "set", required = true)]
    set: Vec<Axis>,
    #[command(flatten)]
    run: RunArgs,
}

pub fn sweep(out: &mut Output, args: SweepArgs) -> Result<ExitCode, CliError> {
    let run = &args.run;
    let variant = run.setup.variant();
    let (opts, mut notes) = run.options(&[variant])?;
    // Points that change rule fields are other rule sets: all are played by
    // the base rule set's player, so that only the rules differ (as
    // `compare` and `explain`). Setup keys hold a colon, rule fields none.
    if !notes.is_empty() && args.set.iter().any(|axis| !axis.key.contains(':')) {
        let words = format!(
            "every point is played by {}'s player (name one with --caesar-ai/--pompey-ai to choose another)",
            variant
        );
        super::output::warn(format_args!("{words}"));
        notes.push(words);
    }
    let loaded = run.setup.load()?;
    let report_path = run.report.path(opts.shard);
    check_outputs(&report_path.as_deref().into_iter().collect::<Vec<_>>())?;
    let rules = &loaded.game.rules;
    let points = sweep::plan(&loaded.doc, rules, &args.set)?;
    let range = opts.game_range();
    let total = games_times(range.end - range.start, points.len() as u64)?;
    if run.dry_run {
        return dry_run_done(out, total);
    }
    let pool = run.pool()?;
    let report = with_progress(total, |progress| {
        pool.install(|| sweep::sweep(&points, &rules.name, &args.set, &opts, progress))
    })?;
    run.report.emit(out, &report, opts.shard, &notes)?;
    Ok(ExitCode::SUCCESS)
}
