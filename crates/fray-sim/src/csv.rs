//! `--csv FILE`: one row per run, streamed to the file chunk by chunk (never held in memory).
//!
//! Columns: `[variant,]run,seed,winner,rounds,stalemate,none_standing,standing_<side>…,
//! hp_left_<side>…,ending`. `winner` is the side's id, empty when nobody won; `stalemate` is
//! `true` when a limit stopped the fight; `ending` is why the fight ended (`defeated`, `routed`
//! or `limit`; last, so that the earlier columns keep their places).

use crate::rows::RunRows;
use std::io::Write;

/// Writes runs as CSV rows.
#[derive(Debug)]
pub struct CsvWriter<W: Write> {
    out: W,
    sides: Vec<String>,
    with_variant: bool,
}

/// Quotes a field when it holds a comma, a quote or a line break.
pub fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

impl<W: Write> CsvWriter<W> {
    /// Writes the header. `sides` are the side ids in roster order; `with_variant` adds a first
    /// column naming the sweep variant.
    pub fn new(mut out: W, sides: Vec<String>, with_variant: bool) -> std::io::Result<Self> {
        let mut header = String::new();
        if with_variant {
            header.push_str("variant,");
        }
        header.push_str("run,seed,winner,rounds,stalemate,none_standing");
        for side in &sides {
            header.push_str(",standing_");
            header.push_str(&field(side));
        }
        for side in &sides {
            header.push_str(",hp_left_");
            header.push_str(&field(side));
        }
        header.push_str(",ending\n");
        out.write_all(header.as_bytes())?;
        Ok(CsvWriter {
            out,
            sides,
            with_variant,
        })
    }

    /// Writes the rows of one chunk (`variant` is the sweep variant's label).
    pub fn write(&mut self, rows: &RunRows, variant: &str) -> std::io::Result<()> {
        use std::fmt::Write as _;
        let mut text = String::with_capacity(rows.len() * 48);
        let variant = field(variant);
        for row in rows.iter() {
            if self.with_variant {
                text.push_str(&variant);
                text.push(',');
            }
            let winner = row
                .end
                .winner
                .and_then(|w| self.sides.get(w.index()))
                .map_or(String::new(), |s| field(s));
            let none_standing = row.end.winner.is_none() && !row.end.stalemate();
            let _ = write!(
                text,
                "{},{},{},{},{},{}",
                row.run,
                row.seed,
                winner,
                row.end.rounds,
                row.end.stalemate(),
                none_standing
            );
            for n in row.standing {
                let _ = write!(text, ",{n}");
            }
            for hp in row.hp_left {
                let _ = write!(text, ",{hp}");
            }
            let _ = writeln!(text, ",{}", row.end.reason.key());
        }
        self.out.write_all(text.as_bytes())
    }

    /// Flushes and returns the writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_core::{EndReason, FightEnd, SideId, Standing, Tally};

    #[test]
    fn writes_a_header_and_rows() {
        let mut rows = RunRows::new(2);
        let t = |side: u8, hp: i32, down: bool| {
            let standing = if down { Standing::Down } else { Standing::Up };
            Tally::single(SideId(side), hp, 8, standing)
        };
        let won = FightEnd {
            winner: Some(SideId(1)),
            rounds: 3,
            reason: EndReason::Routed,
            limit: None,
        };
        rows.push(
            0,
            77,
            won,
            &[t(0, -2, true), t(1, 5, false), t(1, 3, false)],
        );
        let limit = FightEnd {
            winner: None,
            rounds: 9,
            reason: EndReason::Limit,
            limit: None,
        };
        rows.push(
            1,
            78,
            limit,
            &[t(0, 1, false), t(1, 5, false), t(1, 0, true)],
        );
        let mut w = CsvWriter::new(Vec::new(), vec!["a".into(), "b,c".into()], true).unwrap();
        w.write(&rows, "orc.count=2").unwrap();
        let text = String::from_utf8(w.finish().unwrap()).unwrap();
        assert_eq!(
            text,
            "variant,run,seed,winner,rounds,stalemate,none_standing,standing_a,standing_\"b,c\",hp_left_a,hp_left_\"b,c\",ending\n\
             orc.count=2,0,77,\"b,c\",3,false,false,0,2,0,8,routed\n\
             orc.count=2,1,78,,9,true,false,1,1,1,5,limit\n"
        );
    }
}
