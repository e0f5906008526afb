//! The library face of cgl (this module only gathers it: each part lives in its layer): what every shell (the CLI, the REPL, and any program that embeds
//! cgl: an editor's language server, a web page, a notebook) uses of the core, and nothing
//! else. The CLI and the REPL import only from here (`tests/layers.rs` reads their `use`
//! lines), so what a new shell needs is already on this page.
//!
//! - **Sessions** ([`Session`]): open one with [`SessionConfig`], load files from disk
//!   ([`Session::load_path`]) or from text in memory ([`Session::load_source`]: an editor
//!   buffer, a text box), evaluate expressions ([`Session::eval_text`]), run a file's
//!   `print` and `expect` statements ([`Session::run_statements`]); grade a submission by a
//!   key's exercises ([`Session::key_exercises`], [`Session::load_key`]).
//! - **Per-call limits** ([`Budget`], [`Cancel`]): [`Session::within`] runs one call with
//!   its own time, memory and position limits, and a handle that another thread can trip.
//! - **Diagnostics as data** ([`Diagnostic`], [`Place`]): code, severity, message, labels at
//!   lines, columns and byte offsets, notes, help; [`render`] draws them for a terminal.
//! - **Values as data** ([`Data`]): outcomes, integers, rationals, canonical forms, tuples,
//!   lists, positions and their pictures, strategic equilibria, as well as their text
//!   ([`Session::show`]).
//! - **Definitions and names** ([`Definition`], [`NameAt`], [`Symbol`]): what a file defines
//!   and where, what the name at a place in it is (hover, go to definition), and every place
//!   that names the same thing, in this session or another ([`Session::uses`]).
//! - **Editing help** ([`completions`], [`highlights`]): what may be written at a place of a
//!   buffer, and what each piece of it is, from the last session the buffer loaded in (a
//!   buffer being typed seldom loads).
//! - **Formatting** ([`format_source`]): a file's text in the one layout of `cgl fmt`, for
//!   the command line and an editor's "format document" alike.
//! - **Shell helpers**: [`progress`] (the progress line), [`stats`] (what a run cost),
//!   [`plot`] (pictures of tables as SVG and PNG), and the lexer's words ([`lex`]) for
//!   highlighting and completion.
//!
//! ```
//! use cgl::api::{Budget, Data, Session, SessionConfig};
//!
//! let mut session = Session::new(SessionConfig::default());
//! let text = "game Nim { position n  move k for k in 0..n }\nexpect Nim(3) + Nim(3) is P\n";
//! let file = session.load_source("nim.game", text).unwrap();
//!
//! // An expression, with a budget of its own: one second, 64 MiB, 10,000 positions.
//! let budget = Budget::new().seconds(1.0).memory(64 << 20).positions(10_000);
//! let value = session
//!     .within(&budget, |s| s.eval_text("grundy(Nim(3) + Nim(5))", &[file]))
//!     .unwrap();
//! assert_eq!(session.data(&value), Data::Int(6));
//!
//! // A mistake is data: a code, a place, a help line.
//! let errors = session.eval_text("grundy(Nimm(3))", &[file]).unwrap_err();
//! let found = session.diagnostics(&errors);
//! assert_eq!(found[0].code.name(), "cgl::resolve::unknown_name");
//! assert_eq!(found[0].place.as_ref().unwrap().column, 8);
//! assert_eq!(found[0].help.as_deref(), Some("did you mean `Nim`?"));
//!
//! // What the file defines, and what a name in it is.
//! let nim = &session.definitions(file)[0];
//! assert_eq!((nim.name.as_str(), nim.place.line), ("Nim", 1));
//! let at = session.name_at(file, text.find("Nim(3)").unwrap()).unwrap();
//! assert_eq!(at.definition.unwrap().line, 1);
//! ```

pub use crate::diag::{
    cut, did_you_mean, render, render_all, severity_text, Code, Diag, DiagResult, Diagnostic,
    FileId, Label, Locator, Place, RenderStyle, Severity, SourceMap, Span,
};
pub use crate::session::{
    choose_move, completions, escaped, highlights, picture_svg, short_label, shown, word_start,
    Binding, Bindings, Budget, Cancel, Certificate, Completion, CompletionKind, Data, Definition,
    DefinitionKind, Equilibria, Equilibrium, Exercise, Facts, FailedValues, ForMover, Fragment,
    GameInfo, Gave, HeapTable, Highlight, HighlightKind, LoadPolicy, Marked, MovesGraph, NameAt,
    OptionFacts, ParsedExpr, PlayEnd, PlayOption, PlayView, Proves, Ran, Rows, RunOptions,
    SealedExercise, SealedKey, Session, SessionConfig, StatementKind, Symbol, TableVar, Winner,
    CERTIFICATE_FORMAT, DEFAULT_MAX_FILE_MIB, DOT_NODES, MOST_OPTIONS, SEALED_FORMAT,
    TABLE_PROOF_HEAP,
};

pub use crate::cgt::{Dyadic, Side};
pub use crate::eval::arith::range_count;
pub use crate::eval::builtins::{self, Builtin, BUILTINS, CONSTANT_NAMES};
pub use crate::eval::picture::{gallery, indent};
pub use crate::eval::{Limits, Meter, Stop, StrategicTable, INTERRUPTED, TIMEOUT};
pub use crate::graph::{GraphConfig, IndexUse};
pub use crate::num::Rational;
pub use crate::plot;
pub use crate::progress;
/// What is typed at a prompt, read without evaluating it: entries and meta-commands
/// (`:table`, `:grid`, `:play`, ...), shared by the REPL and `cgl serve`'s query box.
pub use crate::session::command;
pub use crate::stats;
pub use crate::strategic::Game as StrategicGame;
pub use crate::syntax::ast::{BinaryOp, Grade};
pub use crate::syntax::format::format_source;
pub use crate::value::{with_forms, Outcome, PosTerm, Value, MAX_SHOWN};

/// The lexer's view of the language, for highlighting, completion and formatting.
pub mod lex {
    pub use crate::syntax::lex::{
        is_identifier, is_keyword, is_word_char, lex, Tok, CLAUSE_WORDS, KEYWORDS,
        STATEMENT_KEYWORDS,
    };
}
