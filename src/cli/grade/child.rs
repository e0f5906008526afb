//! `cgl grade-child KEY SUBMISSION --seconds S --memory-mib M` (hidden, not for people):
//! grades one submission and writes its [`Record`] on stdout as JSON. The submission is
//! read confined to its own folder (no import out of it, files of at most 1 MiB) and the
//! whole grading runs under the time and memory given.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Mark, Record};
use crate::api::{
    render, shown, Budget, Diag, Exercise, LoadPolicy, Marked, RenderStyle, SealedKey, Session,
    SessionConfig, SEALED_FORMAT,
};

/// The largest submission read, MiB.
const SUBMISSION_MIB: u64 = 1;

/// The limits of one submission.
pub struct Limits {
    /// Seconds.
    pub seconds: f64,
    /// MiB.
    pub memory_mib: usize,
}

/// One file of a key: its text, or sealed.
pub enum Part {
    /// A `.game` key: its name and text.
    Open(String, String),
    /// A sealed key.
    Sealed(SealedKey),
}

/// A key: one file, or a folder's files, each with its name in the folder.
pub struct Key(Vec<(Option<String>, Part)>);

/// The files of a folder key: its `.sealed` files and its `.game` files with exercises (not
/// the solutions and definitions they import), in name order.
pub fn key_parts(folder: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(folder)
        .map_err(|e| format!("error: cannot list the key {}: {e}", shown(folder)))?;
    let mut session = Session::new(SessionConfig::default());
    let mut is_part = |p: &Path| match p.extension() {
        Some(e) if e == "sealed" => true,
        Some(e) if e == "game" => {
            std::fs::read_to_string(p).map_or(true, |text| session.is_key(&shown(p), &text))
        }
        _ => false,
    };
    let mut parts: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && is_part(p))
        .collect();
    parts.sort();
    if parts.is_empty() {
        return Err(format!(
            "error: the key {} has no .sealed files and no .game files with exercises",
            shown(folder)
        ));
    }
    Ok(parts)
}

impl Part {
    /// Reads a key's file: a sealed one when its name ends in `.sealed`.
    fn read(path: &Path) -> Result<Part, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("error: cannot read the key {}: {e}", shown(path)))?;
        if path.extension().is_some_and(|e| e == "sealed") {
            let sealed: SealedKey = serde_json::from_str(&text).map_err(|e| {
                format!(
                    "error[cgl::grade::bad_sealed_key]: {} is not a sealed key ({e}); seal the key again with `cgl seal KEY -o KEY.sealed`",
                    shown(path)
                )
            })?;
            if sealed.format != SEALED_FORMAT || sealed.version != 1 {
                return Err(format!(
                    "error[cgl::grade::bad_sealed_key]: {} is a `{}` version {}, not a {SEALED_FORMAT} version 1",
                    shown(path),
                    sealed.format,
                    sealed.version
                ));
            }
            return Ok(Part::Sealed(sealed));
        }
        Ok(Part::Open(shown(path), text))
    }

    /// The part's exercises as marks not yet given. The error: the key does not parse.
    fn exercises(&self, part: Option<&String>) -> Result<Vec<Mark>, String> {
        let blank = |line, points, question| Mark {
            part: part.cloned(),
            line,
            points,
            earned: 0,
            status: String::new(),
            question,
            feedback: Vec::new(),
        };
        match self {
            Part::Sealed(k) => Ok(k
                .exercises
                .iter()
                .map(|e| blank(e.line, e.points, None))
                .collect()),
            Part::Open(name, text) => {
                let mut session = Session::new(SessionConfig::default());
                match session.key_exercises(name, text) {
                    Ok(found) => Ok(found
                        .into_iter()
                        .map(|e| {
                            let q = (!e.grade.hide).then_some(e.text);
                            blank(e.line, e.grade.points, q)
                        })
                        .collect()),
                    Err(diags) => Err(diags
                        .iter()
                        .map(|d| render(d, &session.sources, RenderStyle::Plain))
                        .collect::<Vec<_>>()
                        .join("\n")),
                }
            }
        }
    }
}

impl Key {
    /// Reads a key: a file, or a folder of them ([`key_parts`]).
    pub fn read(path: &Path) -> Result<Key, String> {
        if !path.is_dir() {
            return Ok(Key(vec![(None, Part::read(path)?)]));
        }
        key_parts(path)?
            .into_iter()
            .map(|p| {
                let name = p.file_stem().map(|n| n.to_string_lossy().into_owned());
                Ok((name, Part::read(&p)?))
            })
            .collect::<Result<_, String>>()
            .map(Key)
    }

    /// The key's exercises as marks not yet given, for reports and for records of
    /// submissions that could not be graded. The error: a file of the key does not parse.
    pub fn exercises(&self) -> Result<Vec<Mark>, String> {
        let mut all = Vec::new();
        for (name, part) in &self.0 {
            all.extend(part.exercises(name.as_ref())?);
        }
        Ok(all)
    }
}

/// Runs `cgl grade-child`: exit status 0 when the record was written, 2 otherwise.
pub fn run(
    key: &Path,
    submission: &Path,
    limits: &Limits,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let key = match Key::read(key) {
        Ok(k) => k,
        Err(message) => {
            let _ = writeln!(err, "{message}");
            return 2;
        }
    };
    let record = grade(&key, submission, limits);
    match serde_json::to_writer(&mut *out, &record) {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(err, "error: cannot write the grade: {e}");
            2
        }
    }
}

/// One submission's record.
fn grade(key: &Key, submission: &Path, limits: &Limits) -> Record {
    let blank = key.exercises().unwrap_or_default();
    let total = blank.iter().map(|e| e.points).sum();
    let mut record = Record {
        submission: shown(submission),
        earned: 0,
        total,
        problems: Vec::new(),
        exercises: Vec::new(),
    };
    let folder = submission
        .parent()
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .and_then(|p| std::fs::canonicalize(p).ok())
        .unwrap_or_else(|| PathBuf::from("."));
    let mut session = Session::new(SessionConfig::default());
    session.set_load_policy(LoadPolicy {
        max_file_size: SUBMISSION_MIB << 20,
        confine: Some(folder),
    });
    let budget = Budget::new()
        .seconds(limits.seconds)
        .memory(limits.memory_mib.saturating_mul(1 << 20));
    let plain = |s: &Session, d: &Diag| render(d, &s.sources, RenderStyle::Plain);
    let graded = session.within(&budget, |s| {
        let index = match s.load_path(submission) {
            Ok(i) => i,
            Err(diags) => return Err(diags.iter().map(|d| plain(s, d)).collect::<Vec<_>>()),
        };
        let mut marks = Vec::new();
        for (name, part) in &key.0 {
            let marked = match part {
                Part::Open(file, text) => s.grade(file, text, index),
                Part::Sealed(k) => s.grade_sealed(k, index),
            }
            .map_err(|diags| diags.iter().map(|d| plain(s, d)).collect::<Vec<_>>())?;
            marks.extend(marked.into_iter().map(|(e, m)| Mark {
                part: name.clone(),
                ..mark(s, e, m)
            }));
        }
        Ok(marks)
    });
    match graded {
        Ok(marks) => {
            record.earned = marks.iter().map(|m| m.earned).sum();
            record.exercises = marks;
        }
        Err(problems) => {
            record.problems = problems;
            record.exercises = blank
                .into_iter()
                .map(|m| Mark {
                    status: "unanswered".into(),
                    ..m
                })
                .collect();
        }
    }
    record
}

/// What one exercise gave, as the submission is told it: nothing of the key's side of an
/// exercise it hides.
fn mark(session: &Session, exercise: Exercise, marked: Marked) -> Mark {
    let hide = exercise.grade.hide;
    let mut feedback: Vec<String> = Vec::new();
    let teacher = exercise.grade.feedback.clone();
    let (status, earned) = match marked {
        Marked::Passed => ("passed", exercise.grade.points),
        Marked::Failed { diag, shown } => {
            feedback.extend(teacher);
            if hide {
                feedback.extend(shown);
            } else {
                feedback.push(render(&diag, &session.sources, RenderStyle::Plain));
            }
            ("failed", 0)
        }
        Marked::Unanswered(diags) => {
            feedback.extend(teacher);
            // Their messages name what is missing; their places are in the key.
            for d in diags.iter().take(3) {
                let mut line = d.message.clone();
                if let Some(help) = &d.help {
                    line.push_str(&format!(" ({help})"));
                }
                feedback.push(line);
            }
            ("unanswered", 0)
        }
        Marked::Skipped => {
            feedback.push("not graded: the submission ran out of time before it".into());
            ("skipped", 0)
        }
    };
    Mark {
        part: None,
        line: exercise.line,
        points: exercise.grade.points,
        earned,
        status: status.into(),
        question: (!hide).then_some(exercise.text),
        feedback,
    }
}
