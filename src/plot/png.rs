//! A laid-out picture rasterised and encoded as PNG. The shapes are rectangles, lines and
//! text, so the rasteriser is a few loops over an RGB buffer (text in the 5 × 7 pixel font
//! of `font.rs`, at twice its size); the `png` crate encodes it.

use super::font;
use std::io::Write;

use super::{
    text_width, Anchor, DrawError, Layout, Rgb, Shape, Stopped, BACKGROUND, CHECK_EVERY, INK,
    TEXT_SCALE,
};

/// An RGB image.
struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Canvas {
    /// A canvas of the background's colour, unless `stop` says to stop first.
    fn new(width: u32, height: u32, stop: &dyn Fn() -> bool) -> Result<Canvas, Stopped> {
        let row: Vec<u8> = BACKGROUND.repeat(width as usize);
        let mut pixels = Vec::with_capacity(row.len() * height as usize);
        for y in 0..height as usize {
            if y % CHECK_EVERY == 0 && stop() {
                return Err(Stopped);
            }
            pixels.extend_from_slice(&row);
        }
        Ok(Canvas {
            width,
            height,
            pixels,
        })
    }

    fn set(&mut self, x: i64, y: i64, c: Rgb) {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        self.pixels[i..i + 3].copy_from_slice(&c);
    }

    fn rect(&mut self, x: u32, y: u32, w: u32, h: u32, c: Rgb) {
        let x_end = x.saturating_add(w).min(self.width);
        let y_end = y.saturating_add(h).min(self.height);
        for py in y..y_end {
            for px in x..x_end {
                self.set(i64::from(px), i64::from(py), c);
            }
        }
    }

    /// A one-pixel line from `a` to `b`, ends included (Bresenham).
    fn line(&mut self, a: (u32, u32), b: (u32, u32), c: Rgb) {
        let (mut x, mut y) = (i64::from(a.0), i64::from(a.1));
        let (x1, y1) = (i64::from(b.0), i64::from(b.1));
        let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
        let (sx, sy) = (if x < x1 { 1 } else { -1 }, if y < y1 { 1 } else { -1 });
        let mut err = dx + dy;
        loop {
            self.set(x, y, c);
            if x == x1 && y == y1 {
                break;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// Text with its baseline at `y`, in the font of `font.rs` at [`TEXT_SCALE`]; turned a
    /// quarter anticlockwise when `vertical` (then its baseline is the column `x`, its glyphs
    /// to the left of it, and it reads upwards from `y`), as SVG's `rotate(-90)` draws it.
    fn text(&mut self, x: u32, y: u32, text: &str, anchor: Anchor, vertical: bool, c: Rgb) {
        let scale = i64::from(TEXT_SCALE);
        let width = i64::from(text_width(text));
        let shift = match anchor {
            Anchor::Start => 0,
            Anchor::Middle => width / 2,
            Anchor::End => width,
        };
        let ascent = i64::from(font::ASCENT) * scale;
        for (k, ch) in text.chars().enumerate() {
            let origin = k as i64 * i64::from(font::ADVANCE) * scale - shift;
            for gy in 0..font::ASCENT + font::DESCENT {
                for gx in 0..font::WIDTH {
                    if !font::pixel(ch, gx, gy) {
                        continue;
                    }
                    for sy in 0..scale {
                        for sx in 0..scale {
                            // Along the text, and down from its baseline.
                            let along = origin + i64::from(gx) * scale + sx;
                            let down = i64::from(gy) * scale + sy - ascent;
                            let (px, py) = if vertical {
                                (i64::from(x) + down, i64::from(y) - along)
                            } else {
                                (i64::from(x) + along, i64::from(y) + down)
                            };
                            self.set(px, py, c);
                        }
                    }
                }
            }
        }
    }
}

/// The RGB pixels of a layout, row by row, 3 bytes a pixel, unless `stop` says to stop first.
pub fn rasterise(layout: &Layout, stop: &dyn Fn() -> bool) -> Result<Vec<u8>, Stopped> {
    let mut canvas = Canvas::new(layout.width, layout.height, stop)?;
    for (i, shape) in layout.shapes.iter().enumerate() {
        if i % CHECK_EVERY == 0 && stop() {
            return Err(Stopped);
        }
        match shape {
            Shape::Rect {
                x, y, w, h, fill, ..
            } => canvas.rect(*x, *y, *w, *h, *fill),
            Shape::Line { from, to, colour } => canvas.line(*from, *to, *colour),
            Shape::Text {
                x,
                y,
                text,
                anchor,
                vertical,
            } => canvas.text(*x, *y, text, *anchor, *vertical, INK),
        }
    }
    Ok(canvas.pixels)
}

/// The PNG file of a layout, unless `stop` says to stop first (it is asked between rows of
/// pixels as they are encoded too), or the encoder's error in words.
pub fn write(layout: &Layout, stop: &dyn Fn() -> bool) -> Result<Vec<u8>, DrawError> {
    let pixels = rasterise(layout, stop)?;
    let encoding = |e: png::EncodingError| DrawError::Encoding(e.to_string());
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, layout.width, layout.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(encoding)?;
        // IDAT chunks of up to a megabyte (the stream writer's default is 4 KiB).
        let mut stream = writer.stream_writer_with_size(1 << 20).map_err(encoding)?;
        // A few rows at a time, about a megabyte.
        let row = (layout.width as usize * 3).max(1);
        let rows = (CHECK_EVERY * CHECK_EVERY / row).max(1);
        for chunk in pixels.chunks(row * rows) {
            if stop() {
                return Err(DrawError::Stopped);
            }
            stream
                .write_all(chunk)
                .map_err(|e| DrawError::Encoding(e.to_string()))?;
        }
        stream.finish().map_err(encoding)?;
        writer.finish().map_err(encoding)?;
    }
    Ok(bytes)
}
