//! The Universal Scalability Law (Gunther, *Guerrilla Capacity Planning*, 2007): the
//! throughput of N units is X(N) = λN / (1 + σ(N − 1) + κN(N − 1)), σ the share that
//! serialises (contention), κ the cost of keeping units coherent (crosstalk), λ one unit's
//! throughput. A curve with no mechanism behind it, fitted beside hotrow's so that a
//! reader sees what each explains.
//!
//! Fitted by relative least squares (as hotrow's fit is): λ in closed form for given σ
//! and κ, σ = s² and κ = k² searched by Nelder–Mead so neither goes below 0.

use crate::search::{self, Limits};
use crate::stats::{self, Estimate};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usl {
    /// The count the law is over (`dataNodes`, `clientsPerApiNode`, ...).
    pub field: String,
    pub sigma: Estimate,
    pub kappa: Estimate,
    pub lambda: Estimate,
    /// Where throughput peaks, N* = sqrt((1 − σ) / κ), and the throughput there; none
    /// when κ is not told from 0 (its interval reaches 0) or the peak is past a million
    /// (it grows towards λ/σ without a peak within reach).
    pub peak: Option<Peak>,
    pub rms_relative_error: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Peak {
    pub n: f64,
    pub x: f64,
}

fn law(sigma: f64, kappa: f64, lambda: f64, n: f64) -> f64 {
    lambda * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0))
}

impl Usl {
    pub fn throughput(&self, n: f64) -> f64 {
        law(self.sigma.value, self.kappa.value, self.lambda.value, n)
    }

    /// Fits (N, X) points: at least 3 distinct N (three coefficients), every N ≥ 1 and X > 0.
    pub fn fit(field: &str, points: &[(f64, f64)]) -> Result<Usl, String> {
        if let Some((n, _)) = points.iter().find(|(n, _)| !(*n >= 1.0 && n.is_finite())) {
            return Err(format!("USL: {field} = {n}; the law counts units from 1"));
        }
        let mut distinct: Vec<f64> = points.iter().map(|p| p.0).collect();
        distinct.sort_by(f64::total_cmp);
        distinct.dedup();
        if distinct.len() < 3 {
            return Err(format!(
                "USL: needs at least 3 different values of {field} (it has 3 coefficients); these points have {}",
                distinct.len()
            ));
        }
        // λ minimizing Σ(λ g_i / X_i − 1)² for g_i = N_i / D_i.
        let lambda_for = |sigma: f64, kappa: f64| {
            let (mut a, mut b) = (0.0, 0.0);
            for &(n, x) in points {
                let r = law(sigma, kappa, 1.0, n) / x;
                a += r;
                b += r * r;
            }
            a / b
        };
        let cost = |sigma: f64, kappa: f64| {
            let lambda = lambda_for(sigma, kappa);
            points.iter().map(|&(n, x)| (law(sigma, kappa, lambda, n) / x - 1.0).powi(2)).sum::<f64>()
        };
        let limits = Limits { max_iterations: 4000, stall_iterations: 200, x_tolerance: 1e-12, sd_tolerance: 1e-20 };
        // From a few starts (the surface has a long valley between σ and κ); keep the best.
        let mut best: Option<(Vec<f64>, f64)> = None;
        for start in [[0.1, 0.01], [0.3, 0.001], [0.03, 0.03]] {
            let (x, _, _, _) = search::minimize(|p| cost(p[0] * p[0], p[1] * p[1]), &start, &[0.05, 0.05], limits, |_, _, _| true);
            // Polish from where it stopped.
            let (x, c, _, _) = search::minimize(|p| cost(p[0] * p[0], p[1] * p[1]), &x, &[0.01, 0.01], limits, |_, _, _| true);
            if best.as_ref().is_none_or(|b| c < b.1) {
                best = Some((x, c));
            }
        }
        let (x, ssr) = best.expect("three starts ran");
        let (sigma, kappa) = (x[0] * x[0], x[1] * x[1]);
        let lambda = lambda_for(sigma, kappa);
        // The Jacobian of the relative residuals in (σ, κ, λ).
        let jacobian: Vec<Vec<f64>> = points
            .iter()
            .map(|&(n, x)| {
                let d = 1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0);
                vec![-lambda * n * (n - 1.0) / (d * d) / x, -lambda * n * n * (n - 1.0) / (d * d) / x, n / d / x]
            })
            .collect();
        let half = stats::half_widths(&jacobian, ssr);
        // None of the three is below 0: an interval is cut there.
        let est = |v: f64, j: usize| match &half {
            Some(h) => Estimate { value: v, low: Some((v - h[j]).max(0.0)), high: Some(v + h[j]) },
            None => Estimate::bare(v),
        };
        // A peak only where kappa is told from 0: its interval (cut at 0) stays above it,
        // and the peak is within a million units (kappa ~ 0 puts it at 3e10 data nodes).
        let kappa_est = est(kappa, 1);
        let told_from_zero = kappa_est.low.is_none_or(|low| low > 0.0);
        let peak = (kappa > 0.0 && sigma < 1.0 && told_from_zero)
            .then(|| ((1.0 - sigma) / kappa).sqrt())
            .filter(|&n| n <= 1e6)
            .map(|n| Peak { n, x: law(sigma, kappa, lambda, n) });
        Ok(Usl {
            field: field.to_string(),
            sigma: est(sigma, 0),
            kappa: est(kappa, 1),
            lambda: est(lambda, 2),
            peak,
            rms_relative_error: (ssr / points.len() as f64).sqrt(),
        })
    }
}
