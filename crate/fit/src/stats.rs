//! Intervals of a least-squares fit: at the optimum, the parameters' covariance is
//! s² (JᵀJ)⁻¹, J the Jacobian of the residuals and s² = SSR / (n − p); a 95% interval is
//! the value ± t(0.975, n − p) standard errors (Bates & Watts, *Nonlinear Regression
//! Analysis*, ch. 2; what R's `nls` and the `usl` package report).

use serde::{Deserialize, Serialize};

/// A fitted value and its 95% interval (none when the points cannot give one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Estimate {
    pub value: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Estimate {
    pub fn bare(value: f64) -> Estimate {
        Estimate { value, low: None, high: None }
    }
}

/// Student's t, two-sided 95%, for `dof` degrees of freedom.
pub fn t975(dof: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
        2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match dof {
        0 => f64::INFINITY,
        1..=30 => T[dof - 1],
        // Between table rows, the row below (wider: an interval never too narrow).
        31..=40 => 2.042,
        41..=60 => 2.021,
        61..=120 => 2.000,
        _ => 1.980,
    }
}

/// Half-widths of the 95% intervals of `p` parameters from the Jacobian (`n` rows of
/// `p`) and the sum of squared residuals; `None` when there are no more points than
/// parameters, or when JᵀJ is singular (a parameter the points do not depend on).
pub fn half_widths(jacobian: &[Vec<f64>], ssr: f64) -> Option<Vec<f64>> {
    let n = jacobian.len();
    let p = jacobian.first()?.len();
    if n <= p {
        return None;
    }
    let mut jtj = vec![vec![0.0; p]; p];
    for row in jacobian {
        for a in 0..p {
            for b in 0..p {
                jtj[a][b] += row[a] * row[b];
            }
        }
    }
    // Invert with every column scaled to norm 1 (coefficients as different as a rate of
    // 10^4 and a crosstalk of 10^-3 would look singular otherwise), then scale back.
    let d: Vec<f64> = (0..p).map(|j| jtj[j][j].sqrt()).collect();
    if d.iter().any(|&v| !(v > 0.0 && v.is_finite())) {
        return None;
    }
    let scaled = (0..p).map(|a| (0..p).map(|b| jtj[a][b] / (d[a] * d[b])).collect()).collect();
    let inv: Vec<Vec<f64>> =
        invert(scaled)?.iter().enumerate().map(|(a, row)| row.iter().enumerate().map(|(b, v)| v / (d[a] * d[b])).collect()).collect();
    let s2 = ssr / (n - p) as f64;
    let t = t975(n - p);
    Some((0..p).map(|j| t * (s2 * inv[j][j]).max(0.0).sqrt()).collect())
}

/// Gauss–Jordan inverse with partial pivoting of a small matrix whose diagonal is 1;
/// `None` when it is singular (a pivot below 1e-12).
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let p = m.len();
    let mut inv: Vec<Vec<f64>> = (0..p).map(|i| (0..p).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
    for col in 0..p {
        let pivot = (col..p).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() <= 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let d = m[col][col];
        for j in 0..p {
            m[col][j] /= d;
            inv[col][j] /= d;
        }
        for r in 0..p {
            if r != col {
                let f = m[r][col];
                for j in 0..p {
                    m[r][j] -= f * m[col][j];
                    inv[r][j] -= f * inv[col][j];
                }
            }
        }
    }
    inv.iter().flatten().all(|v| v.is_finite()).then_some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_line_gets_the_textbook_interval() {
        // y = a + b x at x = 0..4 with residuals +-0.1: J has rows (1, x); the slope's
        // standard error is sqrt(s2 / Sxx) with Sxx = 10.
        let jac: Vec<Vec<f64>> = (0..5).map(|x| vec![1.0, x as f64]).collect();
        let ssr = 5.0 * 0.01;
        let hw = half_widths(&jac, ssr).unwrap();
        let s2 = ssr / 3.0;
        assert!((hw[1] - 3.182 * (s2 / 10.0).sqrt()).abs() < 1e-12, "{hw:?}");
        assert!((hw[0] - 3.182 * (s2 * 30.0 / 50.0).sqrt()).abs() < 1e-12, "{hw:?}");
    }

    #[test]
    fn no_interval_without_spare_points_or_with_a_dead_parameter() {
        assert_eq!(half_widths(&[vec![1.0, 0.0], vec![0.0, 1.0]], 0.1), None);
        let dead: Vec<Vec<f64>> = (0..4).map(|x| vec![x as f64, 0.0]).collect();
        assert_eq!(half_widths(&dead, 0.1), None);
    }
}
