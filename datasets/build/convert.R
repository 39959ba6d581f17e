# Converts the datasets shipped in Debian packages into the committed CSVs of datasets/.
# Run through datasets/build/build.sh, which downloads and unpacks the packages and then calls
#   Rscript convert.R <unpacked-root> <output-dir>
# Every CSV: header row, numeric features, one target column (last), "\n" line endings, no quotes.
args <- commandArgs(trailingOnly = TRUE)
root <- args[1]; out <- args[2]

num <- function(f) as.numeric(as.character(f))          # factor "3" -> 3 (never the level index)
bin <- function(f, positive) as.integer(as.character(f) == positive)  # positive -> 1, other -> 0
put <- function(df, file) {
  stopifnot(!anyNA(df))
  write.table(df, file.path(out, file), sep = ",", row.names = FALSE, col.names = TRUE,
              quote = FALSE, eol = "\n")
  cat(sprintf("%-28s %5d x %3d\n", file, nrow(df), ncol(df)))
}

mlb <- file.path(root, "usr/lib/R/site-library/mlbench/data")
e <- new.env()
for (n in c("Ionosphere", "BreastCancer", "Sonar", "Glass", "PimaIndiansDiabetes"))
  load(file.path(mlb, paste0(n, ".rda")), envir = e)

# Ionosphere: 34 features kept as in the source (V1, V2 are factors there; V2 is constant 0).
d <- e$Ionosphere
d$V1 <- num(d$V1); d$V2 <- num(d$V2); d$Class <- bin(d$Class, "good")
put(d, "ionosphere.csv")

# BreastCancer: drop the sample Id (not a feature), complete rows only (16 rows miss Bare.nuclei).
d <- e$BreastCancer
d <- d[complete.cases(d), names(d) != "Id"]
for (c in setdiff(names(d), "Class")) d[[c]] <- num(d[[c]])
d$Class <- bin(d$Class, "malignant")
put(d, "breast-cancer.csv")

# Sonar: R (rock) = 1, M (mine) = 0 -- the QP authors' sign (R -> +1).
d <- e$Sonar; d$Class <- bin(d$Class, "R"); put(d, "sonar.csv")

# Glass: 9 chemical features, Type kept as the original UCI class number (1,2,3,5,6,7).
d <- e$Glass; d$Type <- num(d$Type); put(d, "glass.csv")

# PimaIndiansDiabetes (UCI original, zeros standing for missing values are left as in the source).
d <- e$PimaIndiansDiabetes; d$diabetes <- bin(d$diabetes, "pos"); put(d, "pima-indians-diabetes.csv")

# MASS: crabs, Pima.tr, Pima.tr2, Pima.te
invisible(lazyLoad(file.path(root, "usr/lib/R/library/MASS/data/Rdata"), envir = e))
d <- e$crabs
d <- data.frame(sp = bin(d$sp, "B"), index = d$index, FL = d$FL, RW = d$RW, CL = d$CL,
                CW = d$CW, BD = d$BD, sex = bin(d$sex, "M"))
put(d, "crabs.csv")
pima <- function(d) { d$type <- bin(d$type, "Yes"); d }
put(pima(rbind(e$Pima.tr, e$Pima.te)), "pima-mass.csv")
tr2 <- e$Pima.tr2[complete.cases(e$Pima.tr2), ]
rownames(tr2) <- NULL
stopifnot(nrow(tr2) == 200, isTRUE(all.equal(tr2, e$Pima.tr, check.attributes = FALSE)))
put(pima(tr2), "pima-tr2.csv")

# boot: coal -- 191 decimal dates of explosions (Jarrett 1979); "date" is the only column.
invisible(lazyLoad(file.path(root, "usr/lib/R/library/boot/data/Rdata"), envir = e))
put(e$coal, "coal.csv")

# kernlab: spam -- 57 features, type spam = 1, nonspam = 0.
load(file.path(root, "usr/lib/R/site-library/kernlab/data/spam.rda"), envir = e)
d <- e$spam; d$type <- bin(d$type, "spam"); put(d, "spam.csv")

# scikit-learn: wine_data.csv (first line "178,13,class_0,class_1,class_2", no column names).
w <- read.csv(file.path(root, "usr/lib/python3/dist-packages/sklearn/datasets/data/wine_data.csv"),
              header = FALSE, skip = 1)
names(w) <- c("alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols",
              "flavanoids", "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue",
              "od280_od315_of_diluted_wines", "proline", "class")
w$class <- w$class + 1L                                   # sklearn 0,1,2 -> UCI classes 1,2,3
stopifnot(nrow(w) == 178)
put(w, "wine.csv")

# liblinear-tools: heart_scale (LIBSVM sparse format; absent entries are 0), label +1/-1 kept.
lines <- readLines(file.path(root, "usr/share/doc/liblinear-tools/examples/heart_scale"))
lines <- lines[nzchar(trimws(lines))]
x <- matrix(0, nrow = length(lines), ncol = 13, dimnames = list(NULL, paste0("x", 1:13)))
y <- integer(length(lines))
for (i in seq_along(lines)) {
  tok <- strsplit(trimws(lines[i]), "[[:space:]]+")[[1]]
  y[i] <- as.integer(tok[1])
  for (t in tok[-1]) { kv <- strsplit(t, ":")[[1]]; x[i, as.integer(kv[1])] <- as.numeric(kv[2]) }
}
put(data.frame(x, label = y), "heart-scale.csv")

# ggplot2: diamonds -- 53,940 diamonds; the ordered factors cut, color, clarity one-hot encoded with one
# 0/1 column per level (all levels kept: no reference level, so every level is equidistant under an SE
# kernel), named <factor>_<level> ("Very Good" -> Very_Good); target price (US dollars) kept as in the
# source (the Java loader offers log price). x, y, z of 0 (20 rows: unmeasured) are left as in the source.
invisible(lazyLoad(file.path(root, "usr/lib/R/site-library/ggplot2/data/Rdata"), envir = e))
d <- as.data.frame(e$diamonds)
stopifnot(nrow(d) == 53940)
onehot <- function(f, prefix) {
  m <- sapply(levels(f), function(l) as.integer(f == l))
  colnames(m) <- paste0(prefix, "_", gsub(" ", "_", levels(f)))
  as.data.frame(m)
}
d <- data.frame(d[c("carat", "depth", "table", "x", "y", "z")], onehot(d$cut, "cut"), onehot(d$color, "color"),
                onehot(d$clarity, "clarity"), price = d$price)
put(d, "diamonds.csv")
