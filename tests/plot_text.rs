//! The text of `cgl plot`'s pictures: the PNG draws it in a 5 × 7 pixel font (2 rows of
//! descenders) at twice its size, where the SVG's text elements say it is; every text of a
//! picture, large or small, lies inside the picture and clear of the other texts, the plot
//! and the legend's swatches. The glyphs a test reads back are compared with pictures of them
//! written here, independently of the font's table in `src/plot/font.rs`.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{cgl, temp_dir};
use crate::plot::read_png;

/// Image pixels a font pixel.
const SCALE: i64 = 2;
/// A glyph's pixels across, and the advance from one to the next, in font pixels.
const WIDTH: i64 = 5;
const ADVANCE: i64 = 6;
/// Rows above the baseline and below it, in font pixels.
const ASCENT: i64 = 7;
const DESCENT: i64 = 2;

/// The glyphs the tests read, as the font should draw them (`|` between rows, top first;
/// 7 rows, or 9 with descenders).
const EXPECTED: &[(char, &str)] = &[
    ('a', ".....|.....|.###.|....#|.####|#...#|.####"),
    ('b', "#....|#....|#.##.|##..#|#...#|#...#|####."),
    ('c', ".....|.....|.###.|#....|#....|#...#|.###."),
    ('e', ".....|.....|.###.|#...#|#####|#....|.###."),
    ('g', ".....|.....|.####|#...#|#...#|#...#|.####|....#|.###."),
    ('o', ".....|.....|.###.|#...#|#...#|#...#|.###."),
    ('p', ".....|.....|####.|#...#|#...#|#...#|####.|#....|#...."),
    ('r', ".....|.....|#.##.|##..#|#....|#....|#...."),
    ('t', ".#...|.#...|###..|.#...|.#...|.#..#|..##."),
    ('u', ".....|.....|#...#|#...#|#...#|#..##|.##.#"),
    ('A', ".###.|#...#|#...#|#####|#...#|#...#|#...#"),
    ('B', "####.|#...#|#...#|####.|#...#|#...#|####."),
    ('C', ".###.|#...#|#....|#....|#....|#...#|.###."),
    ('E', "#####|#....|#....|####.|#....|#....|#####"),
    ('G', ".###.|#...#|#....|#.###|#...#|#...#|.####"),
    ('P', "####.|#...#|#...#|####.|#....|#....|#...."),
    ('1', "..#..|.##..|..#..|..#..|..#..|..#..|.###."),
    ('2', ".###.|#...#|....#|...#.|..#..|.#...|#####"),
    ('0', ".###.|#...#|#..##|#.#.#|##..#|#...#|.###."),
    ('=', ".....|.....|#####|.....|#####|.....|....."),
    ('(', "...#.|..#..|.#...|.#...|.#...|..#..|...#."),
    (',', ".....|.....|.....|.....|.....|.##..|.##..|..#..|.#..."),
    ('"', ".#.#.|.#.#.|.#.#.|.....|.....|.....|....."),
    (' ', ".....|.....|.....|.....|.....|.....|....."),
];

/// A glyph as rows of `#` and `.`, 9 rows (descender rows clear when not given).
fn expected(c: char) -> Vec<String> {
    let (_, picture) = EXPECTED
        .iter()
        .find(|(e, _)| *e == c)
        .unwrap_or_else(|| panic!("no expected picture of {c:?}"));
    let mut rows: Vec<String> = picture.split('|').map(str::to_string).collect();
    rows.resize((ASCENT + DESCENT) as usize, ".....".to_string());
    rows
}

/// A text element of the SVG: where its anchor point is, how it hangs, whether it is turned.
#[derive(Debug, Clone)]
struct Text {
    x: i64,
    y: i64,
    anchor: String,
    vertical: bool,
    text: String,
}

impl Text {
    /// Its length along its baseline in image pixels, as the PNG draws it.
    fn length(&self) -> i64 {
        (ADVANCE * self.text.chars().count() as i64 - 1) * SCALE
    }

    /// Where its first glyph starts along the baseline, from the anchor point.
    fn start(&self) -> i64 {
        match self.anchor.as_str() {
            "start" => 0,
            "middle" => -(self.length() / 2),
            "end" => -self.length(),
            other => panic!("anchor {other}"),
        }
    }

    /// The image pixel of image pixel `(along, down)` of the text (along its baseline from
    /// its first glyph's left edge, down from its top).
    fn at(&self, along: i64, down: i64) -> (i64, i64) {
        let along = self.start() + along;
        let down = down - ASCENT * SCALE;
        if self.vertical {
            (self.x + down, self.y - along)
        } else {
            (self.x + along, self.y + down)
        }
    }

    /// Its bounding box `(left, top, right, bottom)`, right and bottom excluded.
    fn bounds(&self) -> (i64, i64, i64, i64) {
        let (ax, ay) = self.at(0, 0);
        let (bx, by) = self.at(self.length() - 1, (ASCENT + DESCENT) * SCALE - 1);
        (ax.min(bx), ay.min(by), ax.max(bx) + 1, ay.max(by) + 1)
    }
}

/// A picture: the SVG's texts and rectangles, and the PNG's pixels.
struct Picture {
    width: i64,
    height: i64,
    pixels: Vec<u8>,
    texts: Vec<Text>,
    /// `(left, top, right, bottom)` of the plot's cells together, and of each swatch.
    plot: (i64, i64, i64, i64),
    swatches: Vec<(i64, i64, i64, i64)>,
}

fn attr(node: &roxmltree::Node, name: &str) -> i64 {
    node.attribute(name).unwrap().parse().unwrap()
}

/// Plots `args` (after `plot`) as SVG and as PNG and reads both back.
fn draw(name: &str, args: &[&str]) -> Picture {
    let dir = temp_dir(name);
    let (svg, png) = (dir.join("p.svg"), dir.join("p.png"));
    for path in [&svg, &png] {
        let mut all = vec!["plot"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-o", path.to_str().unwrap()]);
        let (code, _, err) = cgl(&all);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    let picture = read(&svg, &png);
    let _ = std::fs::remove_dir_all(&dir);
    picture
}

fn read(svg: &Path, png: &Path) -> Picture {
    let text = std::fs::read_to_string(svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let (width, height, pixels) = read_png(png);
    let root = doc.root_element();
    assert_eq!(attr(&root, "width"), i64::from(width));
    assert_eq!(attr(&root, "height"), i64::from(height));
    let mut texts = Vec::new();
    let mut swatches = Vec::new();
    let mut plot = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
    for node in doc.descendants().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "text" => texts.push(Text {
                x: attr(&node, "x"),
                y: attr(&node, "y"),
                anchor: node.attribute("text-anchor").unwrap().to_string(),
                vertical: node.attribute("transform").is_some(),
                text: node.text().unwrap_or("").to_string(),
            }),
            "rect" if node.attribute("class") == Some("cell") => {
                let (x, y) = (attr(&node, "x"), attr(&node, "y"));
                let (w, h) = (attr(&node, "width"), attr(&node, "height"));
                plot = (
                    plot.0.min(x),
                    plot.1.min(y),
                    plot.2.max(x + w),
                    plot.3.max(y + h),
                );
            }
            "rect" if node.attribute("width") == Some("14") => {
                let (x, y) = (attr(&node, "x"), attr(&node, "y"));
                swatches.push((x, y, x + 14, y + 14));
            }
            _ => {}
        }
    }
    Picture {
        width: i64::from(width),
        height: i64::from(height),
        pixels,
        texts,
        plot,
        swatches,
    }
}

impl Picture {
    fn ink(&self, (x, y): (i64, i64)) -> bool {
        assert!(
            (0..self.width).contains(&x) && (0..self.height).contains(&y),
            "pixel ({x}, {y}) is outside the picture"
        );
        let at = ((y * self.width + x) * 3) as usize;
        match &self.pixels[at..at + 3] {
            [255, 255, 255] => false,
            [40, 40, 40] => true,
            other => panic!("pixel ({x}, {y}) of text is {other:?}, neither ink nor paper"),
        }
    }

    /// The glyph the PNG draws for character `k` of `text`, as rows of `#` and `.`; each font
    /// pixel must be a whole 2 × 2 block of ink or paper, and the column after the glyph
    /// paper.
    fn glyph(&self, text: &Text, k: usize) -> Vec<String> {
        let origin = k as i64 * ADVANCE * SCALE;
        (0..ASCENT + DESCENT)
            .map(|gy| {
                let row: String = (0..ADVANCE)
                    .map(|gx| {
                        let block: Vec<bool> = (0..SCALE * SCALE)
                            .map(|s| {
                                let along = origin + gx * SCALE + s % SCALE;
                                self.ink(text.at(along, gy * SCALE + s / SCALE))
                            })
                            .collect();
                        assert!(
                            block.iter().all(|&b| b == block[0]),
                            "font pixel ({gx}, {gy}) of {:?} in {:?} is not a whole block",
                            text.text.chars().nth(k),
                            text.text
                        );
                        if block[0] {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect();
                assert!(
                    row.ends_with('.') || k + 1 == text.text.chars().count(),
                    "the space after {:?} in {:?} has ink",
                    text.text.chars().nth(k),
                    text.text
                );
                row[..WIDTH as usize].to_string()
            })
            .collect()
    }

    fn text(&self, want: &str) -> &Text {
        self.texts
            .iter()
            .find(|t| t.text == want)
            .unwrap_or_else(|| panic!("no text {want:?} in {:?}", self.texts))
    }

    /// Every text inside the picture, clear of the others, of the plot and of the swatches.
    fn assert_laid_out(&self, what: &str) {
        let overlap = |a: (i64, i64, i64, i64), b: (i64, i64, i64, i64)| {
            a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
        };
        for (i, t) in self.texts.iter().enumerate() {
            let b = t.bounds();
            assert!(
                b.0 >= 0 && b.1 >= 0 && b.2 <= self.width && b.3 <= self.height,
                "{what}: {t:?} ({b:?}) is cut at the edge of a {}×{} picture",
                self.width,
                self.height
            );
            assert!(!overlap(b, self.plot), "{what}: {t:?} is on the plot");
            for s in &self.swatches {
                assert!(!overlap(b, *s), "{what}: {t:?} is on a swatch {s:?}");
            }
            for u in &self.texts[i + 1..] {
                assert!(!overlap(b, u.bounds()), "{what}: {t:?} overlaps {u:?}");
            }
        }
    }
}

/// Read back from the PNG, the title's characters are the font's glyphs, at scale 2 where
/// the SVG puts them: lowercase and capitals differ, descenders hang below the baseline, and
/// the legend's and the turned axis name's glyphs too.
#[test]
fn png_text_is_the_five_by_seven_font_at_twice_its_size() {
    let title = "\"abc\" == \"ABC\" or e == 0";
    let picture = draw(
        "plot-text-glyphs",
        &[title, "--x", "e=0..=12", "--y", "pg=1..=2"],
    );
    let t = picture.text(title);
    let mut seen = BTreeMap::new();
    for (k, c) in title.chars().enumerate() {
        let got = picture.glyph(t, k);
        assert_eq!(got, expected(c), "{c:?} of the title");
        seen.insert(c, got);
    }
    for (lower, upper) in [('a', 'A'), ('b', 'B'), ('c', 'C')] {
        assert_ne!(seen[&lower], seen[&upper], "{lower} is drawn as {upper}");
    }
    // The legend (`true`, `false`... here `true` for e = 0), the axis labels, the turned
    // name of the vertical axis with its descenders.
    for word in ["true", "e", "0", "12", "1", "2", "pg"] {
        let t = picture.text(word);
        for (k, c) in word.chars().enumerate() {
            if EXPECTED.iter().any(|(e, _)| *e == c) {
                assert_eq!(picture.glyph(t, k), expected(c), "{c:?} of {word:?}");
            }
        }
    }
    assert!(picture.text("pg").vertical);
    picture.assert_laid_out("the glyphs' plot");
}

/// Large and small plots, long labels, a long title, a long axis name, a sequence with its
/// period: every text fits in the picture, clear of the plot, the swatches and each other.
#[test]
fn plot_texts_never_overlap_or_leave_the_picture() {
    let long_title = format!("a * b + 0 * ({})", vec!["a + b"; 40].join(" + "));
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "large grid",
            vec!["a * b", "--x", "a=1..=300", "--y", "b=1..=300"],
        ),
        (
            "long labels",
            vec![
                "a * b",
                "--x",
                "a=-1000000..-999700",
                "--y",
                "b=-100000..-99800",
            ],
        ),
        ("one cell", vec!["a", "--x", "a=5..=5", "--y", "b=7..=7"]),
        (
            "wide last label under a long legend",
            vec![
                "a * 7 + b",
                "--x",
                "a=[1, 2, 3, 4, 1000000]",
                "--y",
                "b=0..2",
            ],
        ),
        (
            "wide name under a long legend",
            vec![
                "longvariablename * 5 + b",
                "--x",
                "longvariablename=1..=3",
                "--y",
                "b=0..5",
            ],
        ),
        (
            "small grid, long names",
            vec![
                "longname + height > 2",
                "--x",
                "longname=1..=3",
                "--y",
                "height=1..=2",
            ],
        ),
        (
            "long title",
            vec![&long_title, "--x", "a=1..=4", "--y", "b=1..=3"],
        ),
        ("sequence", vec!["n * n", "--x", "n=0..60"]),
        (
            "short sequence, wide values",
            vec!["n * 1000000007 - 5", "--x", "n=-3..=3"],
        ),
        (
            "sequence of marks, long name",
            vec![
                "longvariablename % 3 == 0",
                "--x",
                "longvariablename=-3..=3",
            ],
        ),
        ("long sequence", vec!["n % 7", "--x", "n=0..2000"]),
    ];
    for (what, args) in cases {
        let picture = draw("plot-text-layout", &args);
        picture.assert_laid_out(what);
    }
}
