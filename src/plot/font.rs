//! The pixel font of the PNG pictures: printable ASCII (32 to 126), each glyph 5 pixels
//! across and 7 from its top to the baseline, with 2 rows below the baseline for the tails
//! of `g j p q y , ; _`. A character outside ASCII is drawn as its nearest ASCII look-alike
//! (`×` as `x`, `−` as `-`) where it has one, else as a box.
//!
//! The glyphs are written as pictures (`#` set, `.` clear, `|` between rows, top first) and
//! turned into bit rows when compiled; the table's order and shape are checked then too.

/// Pixels across a glyph.
pub const WIDTH: u32 = 5;
/// Rows from a glyph's top to its baseline.
pub const ASCENT: u32 = 7;
/// Rows below the baseline (descenders).
pub const DESCENT: u32 = 2;
/// Pixels from one glyph's left edge to the next one's (the glyph and a column of space).
pub const ADVANCE: u32 = WIDTH + 1;

const ROWS: usize = (ASCENT + DESCENT) as usize;
const FIRST: u8 = b' ';
const COUNT: usize = 95;

/// The glyphs from `' '` to `'~'`: the character, a space, then its rows; a glyph without a
/// descender gives 7 rows, one with gives 9.
const PICTURES: [&str; COUNT] = [
    "  .....|.....|.....|.....|.....|.....|.....",
    "! ..#..|..#..|..#..|..#..|..#..|.....|..#..",
    "\" .#.#.|.#.#.|.#.#.|.....|.....|.....|.....",
    "# .#.#.|.#.#.|#####|.#.#.|#####|.#.#.|.#.#.",
    "$ ..#..|.####|#.#..|.###.|..#.#|####.|..#..",
    "% ##...|##..#|...#.|..#..|.#...|#..##|...##",
    "& .##..|#..#.|#.#..|.#...|#.#.#|#..#.|.##.#",
    "' ..#..|..#..|.#...|.....|.....|.....|.....",
    "( ...#.|..#..|.#...|.#...|.#...|..#..|...#.",
    ") .#...|..#..|...#.|...#.|...#.|..#..|.#...",
    "* .....|..#..|#.#.#|.###.|#.#.#|..#..|.....",
    "+ .....|..#..|..#..|#####|..#..|..#..|.....",
    ", .....|.....|.....|.....|.....|.##..|.##..|..#..|.#...",
    "- .....|.....|.....|#####|.....|.....|.....",
    ". .....|.....|.....|.....|.....|.##..|.##..",
    "/ .....|....#|...#.|..#..|.#...|#....|.....",
    "0 .###.|#...#|#..##|#.#.#|##..#|#...#|.###.",
    "1 ..#..|.##..|..#..|..#..|..#..|..#..|.###.",
    "2 .###.|#...#|....#|...#.|..#..|.#...|#####",
    "3 #####|...#.|..#..|...#.|....#|#...#|.###.",
    "4 ...#.|..##.|.#.#.|#..#.|#####|...#.|...#.",
    "5 #####|#....|####.|....#|....#|#...#|.###.",
    "6 ..##.|.#...|#....|####.|#...#|#...#|.###.",
    "7 #####|....#|...#.|..#..|.#...|.#...|.#...",
    "8 .###.|#...#|#...#|.###.|#...#|#...#|.###.",
    "9 .###.|#...#|#...#|.####|....#|...#.|.##..",
    ": .....|.##..|.##..|.....|.##..|.##..|.....",
    "; .....|.##..|.##..|.....|.##..|.##..|..#..|.#...|.....",
    "< ...#.|..#..|.#...|#....|.#...|..#..|...#.",
    "= .....|.....|#####|.....|#####|.....|.....",
    "> .#...|..#..|...#.|....#|...#.|..#..|.#...",
    "? .###.|#...#|....#|...#.|..#..|.....|..#..",
    "@ .###.|#...#|....#|.##.#|#.#.#|#.#.#|.###.",
    "A .###.|#...#|#...#|#####|#...#|#...#|#...#",
    "B ####.|#...#|#...#|####.|#...#|#...#|####.",
    "C .###.|#...#|#....|#....|#....|#...#|.###.",
    "D ###..|#..#.|#...#|#...#|#...#|#..#.|###..",
    "E #####|#....|#....|####.|#....|#....|#####",
    "F #####|#....|#....|####.|#....|#....|#....",
    "G .###.|#...#|#....|#.###|#...#|#...#|.####",
    "H #...#|#...#|#...#|#####|#...#|#...#|#...#",
    "I .###.|..#..|..#..|..#..|..#..|..#..|.###.",
    "J ..###|...#.|...#.|...#.|...#.|#..#.|.##..",
    "K #...#|#..#.|#.#..|##...|#.#..|#..#.|#...#",
    "L #....|#....|#....|#....|#....|#....|#####",
    "M #...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#",
    "N #...#|#...#|##..#|#.#.#|#..##|#...#|#...#",
    "O .###.|#...#|#...#|#...#|#...#|#...#|.###.",
    "P ####.|#...#|#...#|####.|#....|#....|#....",
    "Q .###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#",
    "R ####.|#...#|#...#|####.|#.#..|#..#.|#...#",
    "S .####|#....|#....|.###.|....#|....#|####.",
    "T #####|..#..|..#..|..#..|..#..|..#..|..#..",
    "U #...#|#...#|#...#|#...#|#...#|#...#|.###.",
    "V #...#|#...#|#...#|#...#|#...#|.#.#.|..#..",
    "W #...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.",
    "X #...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#",
    "Y #...#|#...#|.#.#.|..#..|..#..|..#..|..#..",
    "Z #####|....#|...#.|..#..|.#...|#....|#####",
    "[ .###.|.#...|.#...|.#...|.#...|.#...|.###.",
    "\\ .....|#....|.#...|..#..|...#.|....#|.....",
    "] .###.|...#.|...#.|...#.|...#.|...#.|.###.",
    "^ ..#..|.#.#.|#...#|.....|.....|.....|.....",
    "_ .....|.....|.....|.....|.....|.....|.....|#####|.....",
    "` .#...|..#..|...#.|.....|.....|.....|.....",
    "a .....|.....|.###.|....#|.####|#...#|.####",
    "b #....|#....|#.##.|##..#|#...#|#...#|####.",
    "c .....|.....|.###.|#....|#....|#...#|.###.",
    "d ....#|....#|.##.#|#..##|#...#|#...#|.####",
    "e .....|.....|.###.|#...#|#####|#....|.###.",
    "f ..##.|.#..#|.#...|###..|.#...|.#...|.#...",
    "g .....|.....|.####|#...#|#...#|#...#|.####|....#|.###.",
    "h #....|#....|#.##.|##..#|#...#|#...#|#...#",
    "i ..#..|.....|.##..|..#..|..#..|..#..|.###.",
    "j ...#.|.....|..##.|...#.|...#.|...#.|...#.|#..#.|.##..",
    "k #....|#....|#..#.|#.#..|##...|#.#..|#..#.",
    "l .##..|..#..|..#..|..#..|..#..|..#..|.###.",
    "m .....|.....|##.#.|#.#.#|#.#.#|#.#.#|#.#.#",
    "n .....|.....|#.##.|##..#|#...#|#...#|#...#",
    "o .....|.....|.###.|#...#|#...#|#...#|.###.",
    "p .....|.....|####.|#...#|#...#|#...#|####.|#....|#....",
    "q .....|.....|.####|#...#|#...#|#...#|.####|....#|....#",
    "r .....|.....|#.##.|##..#|#....|#....|#....",
    "s .....|.....|.####|#....|.###.|....#|####.",
    "t .#...|.#...|###..|.#...|.#...|.#..#|..##.",
    "u .....|.....|#...#|#...#|#...#|#..##|.##.#",
    "v .....|.....|#...#|#...#|#...#|.#.#.|..#..",
    "w .....|.....|#...#|#...#|#.#.#|#.#.#|.#.#.",
    "x .....|.....|#...#|.#.#.|..#..|.#.#.|#...#",
    "y .....|.....|#...#|#...#|#...#|#...#|.####|....#|.###.",
    "z .....|.....|#####|...#.|..#..|.#...|#####",
    "{ ...#.|..#..|..#..|.#...|..#..|..#..|...#.",
    "| ..#..|..#..|..#..|..#..|..#..|..#..|..#..",
    "} .#...|..#..|..#..|...#.|..#..|..#..|.#...",
    "~ .....|.....|.#...|#.#.#|...#.|.....|.....",
];

/// The glyphs as bit rows: bit 4 of a row is its leftmost pixel.
static GLYPHS: [[u8; ROWS]; COUNT] = compile(&PICTURES);

/// Turns the pictures into bit rows, failing the build if one is out of order or misshapen.
const fn compile(pictures: &[&str; COUNT]) -> [[u8; ROWS]; COUNT] {
    let mut out = [[0u8; ROWS]; COUNT];
    let mut g = 0;
    while g < COUNT {
        let bytes = pictures[g].as_bytes();
        assert!(bytes[0] == FIRST + g as u8, "the glyphs are out of order");
        assert!(
            bytes[1] == b' ',
            "a glyph's character is followed by a space"
        );
        let (mut i, mut row, mut col) = (2, 0, 0);
        while i < bytes.len() {
            let b = bytes[i];
            assert!(
                b == b'|' || b == b'#' || b == b'.',
                "a glyph has a character other than `#`, `.` and `|`"
            );
            if b == b'|' {
                assert!(col == WIDTH, "a glyph row is not 5 pixels");
                row += 1;
                col = 0;
            } else {
                if b == b'#' {
                    out[g][row] |= 1 << (WIDTH - 1 - col);
                }
                col += 1;
            }
            i += 1;
        }
        assert!(col == WIDTH, "a glyph row is not 5 pixels");
        assert!(
            row + 1 == ASCENT as usize || row + 1 == ROWS,
            "a glyph has neither 7 nor 9 rows"
        );
        g += 1;
    }
    out
}

/// The ASCII character drawn for `c`: itself, a look-alike, or `None` (a box).
fn printable(c: char) -> Option<u8> {
    let c = match c {
        '×' => 'x',
        '−' | '–' | '—' => '-',
        '·' => '.',
        '‘' | '’' => '\'',
        '“' | '”' => '"',
        c => c,
    };
    u8::try_from(c)
        .ok()
        .filter(|b| (FIRST..FIRST + COUNT as u8).contains(b))
}

/// The box drawn for a character the font lacks.
const MISSING: [u8; ROWS] = [
    0b11111, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11111, 0, 0,
];

/// The bit rows of `c`'s glyph, top first (bit 4 the leftmost pixel).
pub fn glyph(c: char) -> &'static [u8; ROWS] {
    match printable(c) {
        Some(b) => &GLYPHS[usize::from(b - FIRST)],
        None => &MISSING,
    }
}

/// Whether pixel `(x, y)` of `c`'s glyph is set: `x` from 0 (left) to 4, `y` from 0 (top)
/// to 8 (the lowest descender row; the baseline is under row 6).
pub fn pixel(c: char, x: u32, y: u32) -> bool {
    x < WIDTH && y < ROWS as u32 && glyph(c)[y as usize] & (1 << (WIDTH - 1 - x)) != 0
}

/// The width of `text` in font pixels, from its first glyph's left edge to its last one's
/// right edge (0 for no text).
pub fn width(text: &str) -> u32 {
    let n = u32::try_from(text.chars().count()).unwrap_or(u32::MAX);
    n.saturating_mul(ADVANCE).saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_printable_glyph_is_distinct_and_lowercase_is_not_capitals() {
        let glyphs: Vec<char> = (' '..='~').collect();
        assert_eq!(glyphs.len(), COUNT);
        for (i, &a) in glyphs.iter().enumerate() {
            for &b in &glyphs[i + 1..] {
                assert_ne!(glyph(a), glyph(b), "{a:?} and {b:?} look alike");
            }
            assert_ne!(glyph(a), &MISSING, "{a:?} is drawn as a box");
        }
        for c in 'a'..='z' {
            assert_ne!(glyph(c), glyph(c.to_ascii_uppercase()));
        }
        // Only the letters with tails reach below the baseline.
        let tails: String = glyphs
            .iter()
            .filter(|&&c| glyph(c)[ASCENT as usize..].iter().any(|&r| r != 0))
            .collect();
        assert_eq!(tails, ",;_gjpqy");
    }

    #[test]
    fn look_alikes_and_boxes() {
        assert_eq!(glyph('×'), glyph('x'));
        assert_eq!(glyph('−'), glyph('-'));
        assert_eq!(glyph('é'), &MISSING);
        assert_eq!(glyph('\n'), &MISSING);
        assert!(pixel('A', 0, 1) && !pixel('A', 0, 0) && !pixel('A', 5, 1) && !pixel('A', 0, 9));
        assert_eq!(width(""), 0);
        assert_eq!(width("ab"), 11);
    }
}
