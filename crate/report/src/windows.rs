//! The run's windows, read from the CSV `hotrow run --csv` prints and the npm
//! `windowsCsv()` gives (Rust's shortest exact numbers: a value reads back as the same
//! `f64`, so the CLI's report and the package's are the same bytes).

/// The windows as columns by name (`endMs`, `tpm`, `nodeLoad[3]`, ...).
#[derive(Debug)]
pub struct Windows {
    names: Vec<String>,
    columns: Vec<Vec<f64>>,
}

impl Windows {
    /// Reads the CSV; a malformed one is named by its line.
    pub fn parse(csv: &str) -> Result<Windows, String> {
        let mut lines = csv.lines().filter(|l| !l.trim().is_empty());
        let header = lines.next().ok_or("the windows CSV is empty: give `hotrow run --csv`'s output")?;
        let names: Vec<String> = header.split(',').map(|s| s.trim().to_string()).collect();
        if !names.iter().any(|n| n == "endMs") {
            return Err("the windows CSV has no endMs column: give `hotrow run --csv`'s output".into());
        }
        let mut columns = vec![Vec::new(); names.len()];
        for (i, line) in lines.enumerate() {
            let cells: Vec<&str> = line.split(',').collect();
            if cells.len() != names.len() {
                return Err(format!("windows CSV line {}: {} cells, the header names {}", i + 2, cells.len(), names.len()));
            }
            for (c, cell) in columns.iter_mut().zip(cells) {
                c.push(cell.trim().parse().map_err(|_| format!("windows CSV line {}: `{cell}` is not a number", i + 2))?);
            }
        }
        Ok(Windows { names, columns })
    }

    /// A column by name, if the windows have it.
    pub fn column(&self, name: &str) -> Option<&[f64]> {
        self.names.iter().position(|n| n == name).map(|i| self.columns[i].as_slice())
    }

    /// A per-node (or per-partition) metric's columns: `nodeLoad[0]`, `nodeLoad[1]`, ...
    pub fn vector(&self, name: &str) -> Vec<&[f64]> {
        (0..).map_while(|i| self.column(&format!("{name}[{i}]"))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_and_vectors_read_back() {
        let w = Windows::parse("endMs,tpm,nodeLoad[0],nodeLoad[1]\n100,1.5,0.25,1\n200,2,0.5,0\n").unwrap();
        assert_eq!(w.column("tpm"), Some(&[1.5, 2.0][..]));
        assert_eq!(w.vector("nodeLoad"), vec![&[0.25, 0.5][..], &[1.0, 0.0][..]]);
        assert!(Windows::parse("endMs,tpm\n100\n").unwrap_err().contains("line 2"));
        assert!(Windows::parse("tpm\n1\n").unwrap_err().contains("endMs"));
    }
}
