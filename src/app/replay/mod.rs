//! Games shown again: the Replay tab, a recorded, played or simulated game
//! stepped through on the Play tab's board (`panel`), and the table of a
//! simulation run's games whose rows open one of them there (`games`, drawn
//! in the Simulate tab).

pub(super) mod games;
pub(super) mod panel;
