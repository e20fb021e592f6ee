//! The search: argmin's Nelder–Mead, driven one iteration at a time so that a caller sees
//! progress and can stop it, and so that it also stops when the best cost has stalled
//! in place (a simulated metric moves in small steps as event order changes, so the
//! simplex's costs need not ever agree to a tolerance, and every evaluation is a set of
//! simulations: steps that polish the fourth digit are not worth their time).

use argmin::core::{CostFunction, Error, IterState, Problem, Solver, State, TerminationStatus};
use argmin::solver::neldermead::NelderMead;
use argmin_math::{ArgminAdd, ArgminMul, ArgminSub};

/// A point of the search space: the three vector operations Nelder–Mead needs.
#[derive(Clone, Debug, PartialEq)]
struct P(Vec<f64>);

impl ArgminAdd<P, P> for P {
    fn add(&self, other: &P) -> P {
        P(self.0.iter().zip(&other.0).map(|(a, b)| a + b).collect())
    }
}

impl ArgminSub<P, P> for P {
    fn sub(&self, other: &P) -> P {
        P(self.0.iter().zip(&other.0).map(|(a, b)| a - b).collect())
    }
}

impl ArgminMul<f64, P> for P {
    fn mul(&self, k: &f64) -> P {
        P(self.0.iter().map(|a| a * k).collect())
    }
}

struct Cost<F>(F);

type St = IterState<P, (), (), (), (), f64>;

impl<F: Fn(&[f64]) -> f64> CostFunction for Cost<F> {
    type Param = P;
    type Output = f64;

    fn cost(&self, p: &P) -> Result<f64, Error> {
        Ok((self.0)(&p.0))
    }
}

/// When to stop.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Iterations at most (an iteration costs one to n + 2 evaluations).
    pub max_iterations: u64,
    /// Stop when the best point has moved less than `x_tolerance` in every coordinate
    /// over this many iterations (the simplex has closed in on it).
    pub stall_iterations: u64,
    pub x_tolerance: f64,
    /// Stop when the simplex's costs agree to this standard deviation.
    pub sd_tolerance: f64,
}

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Converged,
    Settled,
    IterationLimit,
    Cancelled,
}

impl Stop {
    pub fn says(self) -> &'static str {
        match self {
            Stop::Converged => "converged",
            Stop::Settled => "settled (the best point stayed put over the last iterations)",
            Stop::IterationLimit => "stopped at the iteration limit",
            Stop::Cancelled => "cancelled",
        }
    }
}

/// Minimizes `f` from `start`, with a first simplex of `start` and `start + steps[j] e_j`.
/// `on_iteration(iteration, best, cost)` returns false to cancel. Returns the best point,
/// its cost, why it stopped and the iterations made.
pub fn minimize<F: Fn(&[f64]) -> f64>(
    f: F,
    start: &[f64],
    steps: &[f64],
    limits: Limits,
    mut on_iteration: impl FnMut(u64, &[f64], f64) -> bool,
) -> (Vec<f64>, f64, Stop, u64) {
    let mut simplex = vec![P(start.to_vec())];
    for j in 0..start.len() {
        let mut v = start.to_vec();
        v[j] += steps[j];
        simplex.push(P(v));
    }
    let mut solver = NelderMead::new(simplex).with_sd_tolerance(limits.sd_tolerance).expect("a tolerance >= 0");
    // Every point evaluated, with the iteration that asked for it: the simplex is known by
    // the points Nelder-Mead tries around it.
    let tried: std::cell::RefCell<Vec<(u64, Vec<f64>)>> = std::cell::RefCell::new(Vec::new());
    let iteration = std::cell::Cell::new(0u64);
    let mut problem = Problem::new(Cost(|x: &[f64]| {
        tried.borrow_mut().push((iteration.get(), x.to_vec()));
        f(x)
    }));
    let state: St = IterState::new();
    let (mut state, _) = solver.init(&mut problem, state).expect("Nelder-Mead's init does not fail");
    let mut history: Vec<Vec<f64>> = vec![state.param.clone().expect("a best point after init").0];
    let stop = loop {
        if let TerminationStatus::Terminated(_) = <NelderMead<P, f64> as Solver<Cost<F>, St>>::terminate(&mut solver, &state) {
            break Stop::Converged;
        }
        let n = history.len() as u64 - 1;
        if n >= limits.max_iterations {
            break Stop::IterationLimit;
        }
        let near = |p: &[f64], q: &[f64], tol: f64| p.iter().zip(q).all(|(a, b)| (a - b).abs() <= tol);
        let stayed = |w: u64| n >= w && history[(n - w) as usize..].iter().all(|p| near(p, &history[n as usize], limits.x_tolerance));
        // Settled: the best point stayed put over `stall_iterations`, or over half as many
        // while every point tried meanwhile was near it too (the simplex has closed in: the
        // rest would polish digits the points cannot tell apart).
        let closed = |w: u64| {
            tried.borrow().iter().filter(|(i, _)| *i + w > n).all(|(_, p)| near(p, &history[n as usize], 4.0 * limits.x_tolerance))
        };
        let half = limits.stall_iterations.div_ceil(2);
        if stayed(limits.stall_iterations) || (stayed(half) && closed(half)) {
            break Stop::Settled;
        }
        iteration.set(n + 1);
        state = match solver.next_iter(&mut problem, state) {
            Ok((s, _)) => s,
            Err(e) => unreachable!("Nelder-Mead's step does not fail: {e}"),
        };
        let best = &state.param.as_ref().expect("a best point after init").0;
        history.push(best.clone());
        if !on_iteration(n + 1, best, state.cost) {
            break Stop::Cancelled;
        }
    };
    (state.param.expect("a best point after init").0, state.cost, stop, history.len() as u64 - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_minimum_of_a_bowl_and_reports_each_iteration() {
        let limits = Limits { max_iterations: 500, stall_iterations: 50, x_tolerance: 0.0, sd_tolerance: 1e-14 };
        let mut seen = 0;
        let (x, cost, stop, _) = minimize(
            |p| (p[0] - 3.0).powi(2) + 10.0 * (p[1] + 1.0).powi(2),
            &[0.0, 0.0],
            &[0.5, 0.5],
            limits,
            |i, _, _| {
                seen = i;
                true
            },
        );
        assert!((x[0] - 3.0).abs() < 1e-4 && (x[1] + 1.0).abs() < 1e-4, "{x:?} {cost}");
        assert_eq!(stop, Stop::Converged);
        assert!(seen > 10);
    }

    #[test]
    fn a_caller_can_cancel() {
        let limits = Limits { max_iterations: 500, stall_iterations: 50, x_tolerance: 0.0, sd_tolerance: 0.0 };
        let (_, _, stop, _) = minimize(|p| p[0] * p[0], &[5.0], &[1.0], limits, |i, _, _| i < 3);
        assert_eq!(stop, Stop::Cancelled);
    }
}
