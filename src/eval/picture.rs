//! Pictures of positions as text: the pure layout that a game's `show` clause, the
//! built-ins `grid` and `join`, and the REPL's and CLI's galleries share. A picture is lines
//! of text; widths count characters (`char`s), which is what a terminal shows for the
//! symbols boards use.

/// Most lines of a picture shown; past them a last line says how many were left out.
pub const MAX_LINES: usize = 60;
/// Most characters of a picture's line shown; past them the line ends in `…`.
pub const MAX_COLUMNS: usize = 160;

/// The width of a block of text: its longest line, in characters.
pub fn width(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// A picture cut to [`MAX_LINES`] lines of at most [`MAX_COLUMNS`] characters, so a huge
/// picture cannot flood the terminal. Trailing spaces of each line are dropped.
pub fn bounded(picture: &str) -> String {
    let lines: Vec<&str> = picture.lines().collect();
    let mut out = Vec::new();
    for line in lines.iter().take(MAX_LINES) {
        let line = line.trim_end();
        if line.chars().count() > MAX_COLUMNS {
            let cut: String = line.chars().take(MAX_COLUMNS - 1).collect();
            out.push(format!("{cut}…"));
        } else {
            out.push(line.to_string());
        }
    }
    if lines.len() > MAX_LINES {
        out.push(format!(
            "… ({} more line{})",
            lines.len() - MAX_LINES,
            if lines.len() - MAX_LINES == 1 {
                ""
            } else {
                "s"
            }
        ));
    }
    out.join("\n")
}

/// Every line of `text` after `prefix`.
pub fn indent(text: &str, prefix: &str) -> String {
    text.lines()
        .map(|l| format!("{prefix}{l}").trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn pad(line: &str, to: usize) -> String {
    let n = line.chars().count();
    format!("{line}{}", " ".repeat(to.saturating_sub(n)))
}

/// Blocks of text side by side, each centred on the middle line of the tallest, with `sep`
/// between neighbours on that line (spaces as wide on the others): the picture of a
/// compound, `A + B`.
pub fn beside(blocks: &[String], sep: &str) -> String {
    join_blocks(blocks, sep, true)
}

fn join_blocks(blocks: &[String], sep: &str, centre: bool) -> String {
    let height = blocks.iter().map(|b| b.lines().count()).max().unwrap_or(0);
    let middle = height.saturating_sub(1) / 2;
    let gap = " ".repeat(sep.chars().count());
    let widths: Vec<usize> = blocks.iter().map(|b| width(b)).collect();
    let tops: Vec<usize> = blocks
        .iter()
        .map(|b| {
            if centre {
                (height - b.lines().count()) / 2
            } else {
                0
            }
        })
        .collect();
    let mut lines = Vec::with_capacity(height);
    for row in 0..height {
        let mut line = String::new();
        for (i, block) in blocks.iter().enumerate() {
            if i > 0 {
                line.push_str(if row == middle { sep } else { &gap });
            }
            let text = row
                .checked_sub(tops[i])
                .and_then(|r| block.lines().nth(r))
                .unwrap_or("");
            line.push_str(&pad(text, widths[i]));
        }
        lines.push(line.trim_end().to_string());
    }
    lines.join("\n")
}

/// Labelled pictures in rows that fit `columns` characters: each label above its picture,
/// the pictures of a row aligned at their last lines, three spaces between neighbours, a blank line between rows. A picture wider than
/// `columns` gets a row of its own.
pub fn gallery(items: &[(String, String)], columns: usize) -> String {
    let cell = |(label, picture): &(String, String)| -> usize {
        width(picture).max(label.chars().count())
    };
    let mut rows: Vec<Vec<&(String, String)>> = Vec::new();
    let mut used = 0;
    for item in items {
        let w = cell(item);
        match rows.last_mut() {
            Some(row) if used + 3 + w <= columns => {
                row.push(item);
                used += 3 + w;
            }
            _ => {
                rows.push(vec![item]);
                used = w;
            }
        }
    }
    let mut out = Vec::new();
    for row in rows {
        let height = row
            .iter()
            .map(|item| item.1.lines().count())
            .max()
            .unwrap_or(0);
        let blocks: Vec<String> = row
            .iter()
            .map(|item| {
                let w = cell(item);
                let mut block = pad(&item.0, w);
                // Pictures end on one line (a board's bottom row, Chomp's poisoned one).
                for _ in item.1.lines().count()..height {
                    block.push('\n');
                }
                for line in item.1.lines() {
                    block.push('\n');
                    block.push_str(&pad(line, w));
                }
                block
            })
            .collect();
        out.push(join_blocks(&blocks, "   ", false));
    }
    out.join("\n\n")
}

/// Why [`grid`] could not draw its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// The width is not positive.
    Width(i64),
    /// The number of cells does not fill whole rows of the width.
    Ragged {
        /// Cells given.
        cells: usize,
        /// Cells per row.
        width: usize,
    },
    /// A cell's value has no symbol: it is negative or not below the number of symbols.
    NoSymbol {
        /// The cell's index.
        index: usize,
        /// Its value.
        value: i64,
        /// How many symbols there are.
        symbols: usize,
    },
}

/// Cells read row by row, `width` to a row, each drawn as the symbol its value indexes
/// (`symbols[0]` for 0, ...), the symbols of a row separated by a space so that a board
/// looks square in a terminal, rows separated by line breaks. No cells: the empty string.
pub fn grid(cells: &[i64], width: i64, symbols: &[char]) -> Result<String, GridError> {
    let w = usize::try_from(width)
        .ok()
        .filter(|w| *w > 0)
        .ok_or(GridError::Width(width))?;
    if !cells.len().is_multiple_of(w) {
        return Err(GridError::Ragged {
            cells: cells.len(),
            width: w,
        });
    }
    let mut out = String::new();
    for (i, &value) in cells.iter().enumerate() {
        let symbol = usize::try_from(value)
            .ok()
            .and_then(|v| symbols.get(v))
            .ok_or(GridError::NoSymbol {
                index: i,
                value,
                symbols: symbols.len(),
            })?;
        if i > 0 {
            out.push(if i % w == 0 { '\n' } else { ' ' });
        }
        out.push(*symbol);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn grid_draws_rows_of_symbols() {
        let board = [1, 0, 2, 0, 1, 0, 2, 0, 0];
        assert_eq!(
            grid(&board, 3, &chars(".XO")),
            Ok("X . O\n. X .\nO . .".to_string())
        );
        assert_eq!(grid(&[], 4, &chars("ab")), Ok(String::new()));
        assert_eq!(grid(&[1, 1], 1, &chars("ab")), Ok("b\nb".to_string()));
    }

    #[test]
    fn grid_refuses_what_it_cannot_draw() {
        assert_eq!(grid(&[0], 0, &chars("a")), Err(GridError::Width(0)));
        assert_eq!(grid(&[0], -3, &chars("a")), Err(GridError::Width(-3)));
        assert_eq!(
            grid(&[0, 0, 0], 2, &chars("a")),
            Err(GridError::Ragged { cells: 3, width: 2 })
        );
        assert_eq!(
            grid(&[0, 3], 2, &chars(".XO")),
            Err(GridError::NoSymbol {
                index: 1,
                value: 3,
                symbols: 3
            })
        );
        assert_eq!(
            grid(&[-1], 1, &chars(".")),
            Err(GridError::NoSymbol {
                index: 0,
                value: -1,
                symbols: 1
            })
        );
    }

    #[test]
    fn beside_centres_the_separator() {
        let a = "a\nb\nc".to_string();
        let b = "xy".to_string();
        assert_eq!(beside(&[a.clone(), b], " + "), "a\nb + xy\nc");
        assert_eq!(beside(&[a.clone(), a], " & "), "a   a\nb & b\nc   c");
        assert_eq!(beside(&[], " + "), "");
    }

    #[test]
    fn gallery_wraps_at_the_width() {
        let item = |l: &str, p: &str| (l.to_string(), p.to_string());
        let items = [
            item("1", "ab\ncd"),
            item("2", "ef\ngh"),
            item("3", "ij\nkl"),
        ];
        assert_eq!(
            gallery(&items, 80),
            "1    2    3\nab   ef   ij\ncd   gh   kl"
        );
        assert_eq!(gallery(&items, 7), "1    2\nab   ef\ncd   gh\n\n3\nij\nkl");
        // Aligned at the bottom.
        assert_eq!(
            gallery(&[item("1", "a\nb"), item("2", "c")], 80),
            "1   2\na\nb   c"
        );
        // Wider than the line: a row of its own, not cut.
        assert_eq!(gallery(&[item("1", "abcdef")], 3), "1\nabcdef");
    }

    #[test]
    fn bounded_cuts_lines_and_rows() {
        let long = "x".repeat(MAX_COLUMNS + 10);
        let cut = bounded(&long);
        assert_eq!(cut.chars().count(), MAX_COLUMNS);
        assert!(cut.ends_with('…'));
        let tall = vec!["y"; MAX_LINES + 5].join("\n");
        let cut = bounded(&tall);
        assert_eq!(cut.lines().count(), MAX_LINES + 1);
        assert!(cut.ends_with("… (5 more lines)"));
        assert_eq!(bounded("a  \nb"), "a\nb");
    }
}
