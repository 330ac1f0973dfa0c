//! Consistency audits every ruleset must pass (run by the property tests for each ruleset):
//! every option a request lists passes the ruleset's own legality check and its text reads back
//! as the same choice, the default tactics only
//! ever choose legal options, and replaying a fight's answer log reproduces its final state.

use fray_core::protocol::{ChoiceRequest, Interrupt, RollRequest};
use fray_core::{AutoDriver, Driver, NullSink, Rolled, Ruleset};

/// What an audit found wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AuditFailure(pub String);

/// Seeded dice and default tactics that also list the options of every request and check each
/// option and the tactics' answer against the ruleset's legality check.
struct AuditDriver {
    inner: AutoDriver,
    checked: usize,
    failure: Option<String>,
}

impl<R: Ruleset> Driver<R> for AuditDriver {
    fn roll(&mut self, request: &RollRequest) -> Result<Rolled, Interrupt> {
        Driver::<R>::roll(&mut self.inner, request)
    }

    fn choose(
        &mut self,
        state: &R::State,
        request: &ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt> {
        if request.options.is_empty() && self.failure.is_none() {
            self.failure = Some(format!(
                "a request for {:?} listed no options",
                request.question
            ));
        }
        for option in request.options {
            self.checked += 1;
            if let Err(illegal) = R::check_choice(state, request, option) {
                if self.failure.is_none() {
                    self.failure = Some(format!(
                        "option `{}` was offered but the legality check refuses it: {illegal}",
                        R::choice_text(state, option)
                    ));
                }
            }
            // Its text (what logs and scripts show) reads back as the same choice.
            let text = R::choice_text(state, option);
            match R::parse_choice(state, request, &text) {
                Ok(back) if &back == option => {}
                Ok(back) if self.failure.is_none() => {
                    self.failure = Some(format!(
                        "option `{text}` reads back as `{}`",
                        R::choice_text(state, &back)
                    ));
                }
                Err(illegal) if self.failure.is_none() => {
                    self.failure = Some(format!("option `{text}` does not read back: {illegal}"));
                }
                _ => {}
            }
        }
        let choice = R::tactics(state, request);
        if let Err(illegal) = R::check_choice(state, request, &choice) {
            if self.failure.is_none() {
                self.failure = Some(format!(
                    "the default tactics chose `{}`, which the legality check refuses: {illegal}",
                    R::choice_text(state, &choice)
                ));
            }
        }
        Ok(choice)
    }
}

/// Plays a fight from `start` with `seed`, checking every listed option and every tactics
/// choice. Returns how many options were checked.
pub fn audit_choices<R: Ruleset>(
    start: &R::State,
    limits: &fray_core::Limits,
    seed: u64,
) -> Result<usize, AuditFailure> {
    let mut state = start.clone();
    let mut driver = AuditDriver {
        inner: AutoDriver::new(seed),
        checked: 0,
        failure: None,
    };
    let mut sink = NullSink;
    fray_core::run_fight::<R>(&mut state, &mut driver, &mut sink, None, limits)
        .map_err(|i| AuditFailure(crate::explain(&i, R::roster(&state))))?;
    match driver.failure {
        Some(f) => Err(AuditFailure(f)),
        None => Ok(driver.checked),
    }
}
