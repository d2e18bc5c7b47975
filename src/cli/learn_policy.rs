//! `learn-policy`: a policy learned from a tree search's own choices in
//! self-play (issue 44), written into a copy of the search's value file so
//! that `mcts:N@PLAYERS+FILE` widens by it.

use std::path::PathBuf;
use std::process::ExitCode;

use caesar_workbench::ai::SpecText;
use caesar_workbench::ai::policy::PolicyTarget;
use caesar_workbench::sim::players::policy_fit;

use super::args::{PlayerArg, SetupArgs, ThreadsArg, check_outputs, resolve};
use super::simulate::{with_progress, write_file_and_report};
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
#[command(mut_arg("variant", |a| a.help("Rule set whose games to learn from: a variant file or a built-in name")))]
pub struct LearnPolicyArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// The tree search whose choices are learned: mcts:N@PLAYERS+VALUE (its
    /// value file carries the policy).
    #[arg(long)]
    search: PlayerArg,
    /// The value file to write: the search's, with the policy (atomically;
    /// an older one is kept as .bak).
    #[arg(long)]
    out: PathBuf,
    /// Games of self-play.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// What the policy imitates: the search's visit shares (a prior for
    /// the search to widen by), or the move it played (a policy to play
    /// alone, as mcts:0@PLAYERS+FILE).
    #[arg(long, value_enum, default_value_t = Imitate::Visits)]
    imitate: Imitate,
    #[command(flatten)]
    threads: ThreadsArg,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Imitate {
    Visits,
    Choice,
}

pub fn learn_policy(out: &mut Output, args: LearnPolicyArgs) -> Result<ExitCode, CliError> {
    let loaded = args.setup.load()?;
    let variants = [args.setup.variant()];
    let search = resolve(&args.search, &variants, args.setup.scenario())?;
    check_outputs(&[&args.out])?;
    let pool = args.threads.pool()?;
    let learned = with_progress(args.games, |progress| {
        pool.install(|| {
            let target = match args.imitate {
                Imitate::Visits => PolicyTarget::Visits,
                Imitate::Choice => PolicyTarget::Choice,
            };
            policy_fit::learn_policy(
                &loaded.game,
                &search,
                args.games,
                args.seed,
                target,
                progress,
            )
        })
    })
    .map_err(|e| CliError::Usage(e.to_string()))?;
    let header = format!(
        "The value file of {search} with a policy learned from its own choices:\n  caesar-workbench learn-policy --variant {} --search {search} --games {} --seed {}{}",
        args.setup.variant(),
        args.games,
        args.seed,
        match args.imitate {
            Imitate::Visits => "",
            Imitate::Choice => " --imitate choice",
        }
    );
    let text = learned.value.to_ron(&header);
    let written = args.out.display().to_string();
    let search = SpecText::search_on("mcts:64", "PLAYER_FILE", Some(&written)).text();
    let hint = format!("search with it: --caesar-ai {search}");
    write_file_and_report(out, (&args.out, &text), &Shown(learned), false, &hint)
}

/// The fit's text report (the value file holds the numbers).
struct Shown(policy_fit::LearnedPolicy);

impl serde::Serialize for Shown {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_string())
    }
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}
