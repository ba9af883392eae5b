//! `zugzwang runs [DIR]`: the results table of the README, made from the records in solve-runs/.

use super::common::CliError;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `runs`.
#[derive(Args)]
pub struct RunsArgs {
    /// Directory of solve records.
    #[arg(default_value = "solve-runs")]
    dir: PathBuf,
}

/// Prints the markdown table of every record in the directory.
pub fn runs(args: &RunsArgs) -> Result<i32, CliError> {
    let records =
        zugzwang::record::load_dir(&args.dir).map_err(|e| CliError::BadInput(e.to_string()))?;
    print!("{}", zugzwang::record::markdown_table(&records));
    Ok(0)
}
