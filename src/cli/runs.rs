//! `zugzwang runs [DIR]`: the results table of the README, made from the records in solve-runs/;
//! `--sizes` lays out Connect Four's empty boards as the published board-size tables do.

use super::common::CliError;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `runs`.
#[derive(Args)]
pub struct RunsArgs {
    /// Directory of solve records.
    #[arg(default_value = "solve-runs")]
    dir: PathBuf,
    /// Print the Connect Four board-size grid (widths across, heights down: who wins, on which
    /// move the game ends, seconds) instead of the list of records, e.g. of
    /// solve-runs/connect4-sizes.
    #[arg(long)]
    sizes: bool,
}

/// Prints the markdown table of every record in the directory.
pub fn runs(args: &RunsArgs) -> Result<i32, CliError> {
    let records =
        zugzwang::record::load_dir(&args.dir).map_err(|e| CliError::BadInput(e.to_string()))?;
    if args.sizes {
        print!("{}", zugzwang::record::board_size_table(&records));
    } else {
        print!("{}", zugzwang::record::markdown_table(&records));
    }
    Ok(0)
}
