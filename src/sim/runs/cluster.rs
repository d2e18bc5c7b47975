//! Shards chosen by a cluster's scheduler: `--shard auto`.
//!
//! A job array runs the same command in many processes; each learns which
//! part it is from its environment. Two schedulers are understood:
//!
//! - **Slurm job arrays** (`sbatch --array=A-B[:S]`): the task's place is
//!   `(SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP`
//!   (step 1 when unset) of `SLURM_ARRAY_TASK_COUNT` tasks.
//! - **Kubernetes Indexed Jobs** (`completionMode: Indexed`): the 0-based
//!   `JOB_COMPLETION_INDEX`; the number of parts is not in the pod's
//!   environment, so it is given as `--shard auto/N` or in
//!   [`SHARD_COUNT_VAR`] (the manifests set it to the Job's `completions`).
//!
//! Reading the environment is the caller's business (a lookup function), so
//! this is tested without a cluster.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Part `index` (0-based) of `count` equal parts of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The game indices of this shard: contiguous, so shards concatenate.
    /// Computed in 128 bits, so any number of games splits without overflow.
    pub fn range(self, games: u64) -> std::ops::Range<u64> {
        let n = u128::from(self.count.max(1));
        let i = u128::from(self.index).min(n - 1);
        let bound = |k: u128| (u128::from(games) * k / n) as u64;
        bound(i)..bound(i + 1)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `i/n`, 1-based: `1/4` is the first quarter.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::NotAShard {
            text: text.to_string(),
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (u32, u32) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || i == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// The number of shards, for schedulers that do not say (Kubernetes).
pub(crate) const SHARD_COUNT_VAR: &str = "CAESAR_SHARD_COUNT";

/// `--shard i/n`, `--shard auto` or `--shard auto/n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardArg {
    Fixed(Shard),
    /// From the scheduler's environment; `count`, when given, must agree
    /// with the scheduler's (Slurm) or supplies it (Kubernetes).
    Auto {
        count: Option<u32>,
    },
}

/// Why a shard cannot be read or learnt from the scheduler.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("\"{text}\" is not a shard: expected i/n with 1 <= i <= n, as in 2/8")]
    NotAShard { text: String },
    #[error("\"{text}\" is not a shard: in auto/N, N is the number of shards (at least 1)")]
    BadAutoCount { text: String },
    #[error(
        "\"{text}\" is not a shard: expected i/n with 1 <= i <= n, as in 2/8, or auto (from a Slurm array or Kubernetes Indexed Job)"
    )]
    NotAShardOrAuto { text: String },
    #[error("shard auto: {name} is \"{value}\", not a whole number of 0 or more")]
    NotANumber { name: String, value: String },
    #[error(
        "shard auto: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set, so the scheduler is unclear; give the shard as i/n"
    )]
    TwoSchedulers,
    #[error(
        "shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (is this a job array? sbatch --array=0-7)"
    )]
    NoSlurmCount,
    #[error(
        "shard auto: SLURM_ARRAY_TASK_ID {id} is not one of the array's tasks (from {min} in steps of {step}); arrays with gaps (--array=1,4,9) cannot be counted"
    )]
    NotAnArrayTask { id: u64, min: u64, step: u64 },
    #[error(
        "shard auto/{given}: the Slurm array has {count} tasks (SLURM_ARRAY_TASK_COUNT), not {given}"
    )]
    SlurmCountDiffers { given: u32, count: u64 },
    #[error("shard auto/{given} and {SHARD_COUNT_VAR}={from_env} disagree on the number of shards")]
    CountsDisagree { given: u32, from_env: u64 },
    #[error(
        "shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not the number of shards: give auto/N or set {SHARD_COUNT_VAR} to the Job's completions"
    )]
    NoIndexedJobCount,
    #[error(
        "shard auto: no scheduler says which shard this is: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job, with auto/N or {SHARD_COUNT_VAR}) is set; outside a cluster give the shard as i/n"
    )]
    NoScheduler,
    #[error("shard auto: {count} shards in {scheduler} is not a usable number")]
    UnusableCount { count: u64, scheduler: &'static str },
    #[error("shard auto: task {index} (0-based) of {scheduler} is outside its {count} shards")]
    Outside {
        index: u64,
        count: u32,
        scheduler: &'static str,
    },
}

impl FromStr for ShardArg {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<ShardArg, ShardError> {
        let t = text.trim();
        if t == "auto" {
            return Ok(ShardArg::Auto { count: None });
        }
        if let Some(n) = t.strip_prefix("auto/") {
            return match n.trim().parse::<u32>() {
                Ok(n) if n > 0 => Ok(ShardArg::Auto { count: Some(n) }),
                _ => Err(ShardError::BadAutoCount {
                    text: text.to_string(),
                }),
            };
        }
        t.parse::<Shard>()
            .map(ShardArg::Fixed)
            .map_err(|_| ShardError::NotAShardOrAuto {
                text: text.to_string(),
            })
    }
}

impl std::fmt::Display for ShardArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShardArg::Fixed(s) => s.fmt(f),
            ShardArg::Auto { count: None } => f.write_str("auto"),
            ShardArg::Auto { count: Some(n) } => write!(f, "auto/{n}"),
        }
    }
}

impl ShardArg {
    /// The shard this process plays; `env` looks up an environment variable.
    pub fn resolve(self, env: impl Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
        match self {
            ShardArg::Fixed(s) => Ok(s),
            ShardArg::Auto { count } => auto_shard(count, env),
        }
    }

    /// [`ShardArg::resolve`] from this process's environment.
    pub fn resolve_from_env(self) -> Result<Shard, ShardError> {
        self.resolve(|name| std::env::var(name).ok())
    }
}

fn number(env: &impl Fn(&str) -> Option<String>, name: &str) -> Result<Option<u64>, ShardError> {
    match env(name) {
        None => Ok(None),
        Some(value) => value
            .trim()
            .parse::<u64>()
            .map(Some)
            .map_err(|_| ShardError::NotANumber {
                name: name.to_string(),
                value,
            }),
    }
}

fn auto_shard(
    given: Option<u32>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Shard, ShardError> {
    let slurm_id = number(&env, "SLURM_ARRAY_TASK_ID")?;
    let k8s_index = number(&env, "JOB_COMPLETION_INDEX")?;
    let (index, count, scheduler) = match (slurm_id, k8s_index) {
        (Some(_), Some(_)) => return Err(ShardError::TwoSchedulers),
        (Some(id), None) => {
            let min = number(&env, "SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number(&env, "SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let count = number(&env, "SLURM_ARRAY_TASK_COUNT")?.ok_or(ShardError::NoSlurmCount)?;
            if id < min || !(id - min).is_multiple_of(step) {
                return Err(ShardError::NotAnArrayTask { id, min, step });
            }
            let index = (id - min) / step;
            if let Some(given) = given
                && u64::from(given) != count
            {
                return Err(ShardError::SlurmCountDiffers { given, count });
            }
            (index, count, "the Slurm array")
        }
        (None, Some(index)) => {
            let from_env = number(&env, SHARD_COUNT_VAR)?;
            let count = match (given, from_env) {
                (Some(given), Some(from_env)) if u64::from(given) != from_env => {
                    return Err(ShardError::CountsDisagree { given, from_env });
                }
                (Some(n), _) => u64::from(n),
                (None, Some(e)) => e,
                (None, None) => return Err(ShardError::NoIndexedJobCount),
            };
            (index, count, "the Indexed Job")
        }
        (None, None) => return Err(ShardError::NoScheduler),
    };
    let count = u32::try_from(count)
        .ok()
        .filter(|&c| c > 0)
        .ok_or(ShardError::UnusableCount { count, scheduler })?;
    if index >= u64::from(count) {
        return Err(ShardError::Outside {
            index,
            count,
            scheduler,
        });
    }
    Ok(Shard {
        index: index as u32,
        count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    fn auto(text: &str, vars: &[(&str, &str)]) -> Result<Shard, String> {
        let arg = text.parse::<ShardArg>().map_err(|e| e.to_string())?;
        arg.resolve(env(vars)).map_err(|e| e.to_string())
    }

    /// `text` under `vars` is refused, saying `why`.
    fn refused(text: &str, vars: &[(&str, &str)], why: &str) {
        let err = auto(text, vars).unwrap_err();
        assert!(err.contains(why), "{err}");
    }

    #[test]
    fn shard_arguments_parse() {
        assert_eq!("auto".parse(), Ok(ShardArg::Auto { count: None }));
        assert_eq!("auto/8".parse(), Ok(ShardArg::Auto { count: Some(8) }));
        assert_eq!(
            "2/8".parse(),
            Ok(ShardArg::Fixed(Shard { index: 1, count: 8 }))
        );
        assert!("auto/0".parse::<ShardArg>().is_err());
        assert!("automatic".parse::<ShardArg>().is_err());
        assert_eq!("auto/8".parse::<ShardArg>().unwrap().to_string(), "auto/8");
    }

    #[test]
    fn a_slurm_array_task_counts_from_the_arrays_first_id() {
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(auto("auto", &vars), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(auto("auto/4", &vars), Ok(Shard { index: 2, count: 4 }));
        refused("auto/5", &vars, "has 4 tasks");
        // --array=0-14:2 is 8 tasks, 0, 2, ..., 14.
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "6"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ];
        assert_eq!(auto("auto", &stepped), Ok(Shard { index: 3, count: 8 }));
        let outside = [
            ("SLURM_ARRAY_TASK_ID", "9"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        refused("auto", &outside, "outside");
        let no_count = [("SLURM_ARRAY_TASK_ID", "1")];
        refused("auto", &no_count, "SLURM_ARRAY_TASK_COUNT");
    }

    #[test]
    fn an_indexed_job_needs_the_count_given() {
        let vars = [("JOB_COMPLETION_INDEX", "7")];
        assert_eq!(auto("auto/8", &vars), Ok(Shard { index: 7, count: 8 }));
        refused("auto", &vars, SHARD_COUNT_VAR);
        let with_count = [("JOB_COMPLETION_INDEX", "0"), (SHARD_COUNT_VAR, "3")];
        assert_eq!(auto("auto", &with_count), Ok(Shard { index: 0, count: 3 }));
        refused("auto/4", &with_count, "disagree");
        refused("auto/7", &vars, "outside");
    }

    #[test]
    fn auto_outside_a_scheduler_is_refused_clearly() {
        let err = auto("auto", &[]).unwrap_err();
        assert!(err.contains("SLURM_ARRAY_TASK_ID"), "{err}");
        assert!(err.contains("JOB_COMPLETION_INDEX"), "{err}");
        let both = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
            ("JOB_COMPLETION_INDEX", "0"),
        ];
        refused("auto", &both, "both");
        let junk = [("JOB_COMPLETION_INDEX", "x")];
        refused("auto/2", &junk, "not a whole number");
        // A fixed shard ignores the environment.
        assert_eq!(auto("1/2", &both), Ok(Shard { index: 0, count: 2 }));
    }
}
