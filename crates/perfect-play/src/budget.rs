//! What one answer may spend: memory, time and a small mode for fuzzing, and the refusal when
//! the estimated time is above the budget.

/// What an answer may spend, from `--memory-limit` and the caller's time budget (the default:
/// each game's own limits, no time budget).
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// The memory limit in bytes, when given.
    pub memory_limit: Option<u64>,
    /// Clamp every limit to a small budget (the fuzz targets' mode: any input answers fast).
    pub small: bool,
    /// Seconds one answer may take (the server's per-request budget): work estimated above it
    /// is refused with [`OverBudget`] before it starts. None: no time budget.
    pub seconds: Option<f64>,
}

/// A query refused before any work because its estimated time is above the time budget.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "{what} would take {} {estimate:.1} s, above the budget of {budget:.1} s an answer; ask the perfect-play command instead",
    if *at_least { "more than" } else { "about" }
)]
pub struct OverBudget {
    /// What would take the time.
    pub what: String,
    /// The estimate, in seconds.
    pub estimate: f64,
    /// Whether the estimate is only a lower bound (work stopped at the budget).
    pub at_least: bool,
    /// The budget, in seconds.
    pub budget: f64,
}

impl Budget {
    /// The memory limit for work whose default is `default`.
    #[must_use]
    pub fn memory(&self, default: u64) -> u64 {
        let limit = self.memory_limit.unwrap_or(default);
        if self.small {
            limit.min(64 << 10)
        } else {
            limit
        }
    }

    /// `value`, or `small` when the budget is small and `value` is larger.
    pub fn cap<T: Ord>(&self, value: T, small: T) -> T {
        if self.small { value.min(small) } else { value }
    }

    /// Refuse work estimated at `estimate` seconds when it is above the time budget.
    ///
    /// # Errors
    /// [`OverBudget`] with the estimate.
    pub fn check_time(
        &self,
        what: impl FnOnce() -> String,
        estimate: f64,
    ) -> Result<(), OverBudget> {
        match self.seconds {
            Some(budget) if estimate > budget => Err(OverBudget {
                what: what(),
                estimate,
                at_least: false,
                budget,
            }),
            _ => Ok(()),
        }
    }

    /// How many items costing `seconds_each` fit in the time budget (None: no time budget).
    #[must_use]
    pub fn affordable(&self, seconds_each: f64) -> Option<u64> {
        self.seconds.map(|budget| (budget / seconds_each) as u64)
    }

    /// `limit`, lowered to what the time budget affords at `seconds_each` an item.
    #[must_use]
    pub fn limit_by_time(&self, limit: u64, seconds_each: f64) -> u64 {
        self.affordable(seconds_each)
            .map_or(limit, |a| limit.min(a.max(1)))
    }

    /// The refusal for work that stopped at the time budget's cap: `what` needs more than it.
    #[must_use]
    pub fn stopped_at_cap(&self, what: String) -> OverBudget {
        let budget = self.seconds.unwrap_or(0.0);
        OverBudget {
            what,
            estimate: budget,
            at_least: true,
            budget,
        }
    }
}
