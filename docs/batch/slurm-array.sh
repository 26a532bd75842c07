#!/usr/bin/env bash
# Slurm job array: one task per capture of captures.txt (one path a line, on
# storage every node mounts), one core each. Submit from the repository's
# root (or set RUDPSCOPE_TASK to analyze-one.sh) with
#   sbatch --array=0-$(( $(wc -l < captures.txt) - 1 ))%200 docs/batch/slurm-array.sh
# (%200: at most 200 tasks at once). Each task writes results/INDEX-NAME.json.
#SBATCH --job-name=rudpscope-analyze
#SBATCH --cpus-per-task=1
#SBATCH --mem=512M
#SBATCH --time=00:15:00
#SBATCH --output=logs/%A_%a.log
set -euo pipefail
# sbatch runs a copy of this script from its spool folder, so the task script
# is found from the folder the job was submitted from (also the tasks'
# working folder: captures.txt and results/ are there), or RUDPSCOPE_TASK.
exec "${RUDPSCOPE_TASK:-$SLURM_SUBMIT_DIR/docs/batch/analyze-one.sh}" "$SLURM_ARRAY_TASK_ID" captures.txt results
