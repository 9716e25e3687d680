"""Names, labels and ObjectMeta: apimachinery's api/validation, util/validation."""
