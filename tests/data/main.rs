//! Scenario and variant files: the shipped data, the validator and the loader under hostile input.
//! One test binary per area keeps the build short: each binary links the library once.

mod loader_fuzz;
mod scenario_data;
mod validator;
