//! Which game, under which rules, on which board: the one value every front end names a game by.

use super::config::KeyMode;
use crate::game::{Connect4, Rules};
use crate::store::Manifest;
use std::fmt;

/// A game and its rules: what a request asks about and what a store or record is tagged with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameSpec {
    /// Connect Four on a `width` x `height` board (`width * (height + 1) <= 64`).
    Connect4 {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A 4x4x4 game: Sogo, Sogo `-g` or Qubic.
    Cube(Rules),
}

/// A game name or size that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

impl GameSpec {
    /// Standard Connect Four, 7 x 6.
    pub const CONNECT4: GameSpec = GameSpec::Connect4 {
        width: 7,
        height: 6,
    };
    /// Every game name [`GameSpec::from_name`] takes.
    pub const NAMES: [&'static str; 4] = ["connect4", "sogo", "sogo-g", "qubic"];

    /// The game's name in requests, records and store manifests: `connect4`, `sogo`,
    /// `sogo-g` or `qubic`.
    pub fn name(self) -> &'static str {
        match self {
            GameSpec::Connect4 { .. } => "connect4",
            GameSpec::Cube(Rules::Sogo) => "sogo",
            GameSpec::Cube(Rules::SogoPoison) => "sogo-g",
            GameSpec::Cube(Rules::Qubic) => "qubic",
        }
    }

    /// The board: `7x6`, or `4x4x4`.
    pub fn size(self) -> String {
        match self {
            GameSpec::Connect4 { width, height } => format!("{width}x{height}"),
            GameSpec::Cube(_) => "4x4x4".into(),
        }
    }

    /// The manifest of a position store for this game: the game's name, its board and (where
    /// keys are hashes) the key mode, and the hash seed. Connect Four keys do not depend on
    /// `--hash-seed` (exact, or a fixed hash on boards too large for exact keys), so its tables
    /// carry neither key mode nor seed.
    pub fn store_manifest(self, key_mode: KeyMode, hash_seed: u64, start: &str) -> Manifest {
        match self {
            GameSpec::Connect4 { .. } => Manifest::new(self.name(), &self.size(), start, 0),
            GameSpec::Cube(_) => Manifest::new(
                self.name(),
                &format!("{} {}-keys", self.size(), key_mode.name()),
                start,
                hash_seed,
            ),
        }
    }

    /// The key mode a store made for this game was written with, from its manifest (`None`: the
    /// manifest names another board or an unknown key mode).
    pub fn store_key_mode(self, manifest: &Manifest) -> Option<KeyMode> {
        KeyMode::ALL.into_iter().find(|&k| {
            self.store_manifest(k, manifest.hash_seed, &manifest.start)
                .variant
                == manifest.variant
        })
    }

    /// A game by name (`connect4`, `sogo`, `sogo-g`, `qubic`), with a board size for Connect
    /// Four (`None`: 7x6; refused for the 4x4x4 games, whose board is fixed).
    pub fn from_name(name: &str, size: Option<&str>) -> Result<GameSpec, SpecError> {
        let spec = match name {
            "connect4" => {
                let (width, height) = match size {
                    Some(s) => parse_size(s)?,
                    None => (7, 6),
                };
                return Ok(GameSpec::Connect4 { width, height });
            }
            "sogo" => GameSpec::Cube(Rules::Sogo),
            "sogo-g" => GameSpec::Cube(Rules::SogoPoison),
            "qubic" => GameSpec::Cube(Rules::Qubic),
            other => {
                return Err(SpecError(format!(
                    "unknown game '{other}' (games: {})",
                    GameSpec::NAMES.join(", ")
                )))
            }
        };
        match size {
            Some(s) if s != "4x4x4" => Err(SpecError(format!(
                "{name} is played on the 4x4x4 board only, not on '{s}'"
            ))),
            _ => Ok(spec),
        }
    }
}

/// Parses a Connect Four board size `WIDTHxHEIGHT` and checks that it fits the bitboard.
pub fn parse_size(text: &str) -> Result<(u32, u32), SpecError> {
    let bad = || {
        SpecError(format!(
            "board size '{text}' is not of the form WIDTHxHEIGHT (e.g. 7x6)"
        ))
    };
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    Connect4::new(w, h).map_err(|e| SpecError(e.to_string()))?;
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_strangers_are_refused() {
        for name in GameSpec::NAMES {
            assert_eq!(GameSpec::from_name(name, None).unwrap().name(), name);
        }
        assert_eq!(
            GameSpec::from_name("connect4", Some("6x5")),
            Ok(GameSpec::Connect4 {
                width: 6,
                height: 5
            })
        );
        assert!(GameSpec::from_name("chess", None).is_err());
        assert!(GameSpec::from_name("sogo", Some("7x6")).is_err());
        assert!(GameSpec::from_name("connect4", Some("20x20")).is_err());
        for bad in ["7", "x6", "7x", "ax6", "7x6x5", ""] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
