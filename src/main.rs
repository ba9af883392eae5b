//! The `zugzwang` command line: parse, call the library, print. No game logic lives here.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
