//! The Rules tab: every switch and number of the rule set in force as a
//! control, the differences between two variants, saving the switches as a
//! variant (`panel`), and the explanation of what two rule sets change,
//! field by field, run on the Simulate tab's runner (`explain_view`).

pub(super) mod explain_view;
pub(super) mod panel;
