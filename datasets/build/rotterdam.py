"""datasets/rotterdam.csv from Debian 12's r-cran-survival (REP paper: the stand-in for Haberman's survival data).

Usage:  apt-get download r-cran-survival && dpkg -x r-cran-survival_*.deb x
        pip install rdata==1.1.0        # pure-Python reader of R's serialisation format (R itself is not needed)
        python3 rotterdam.py x/usr/lib/R/library/survival/data OUT.csv

survival's data live in R's lazy-load database (Rdata.rdx index + Rdata.rdb): the index gives the object's byte
offset and length in the .rdb; that chunk is a 4-byte big-endian length, a 1-byte compression tag ('Z' here)
and a raw LZMA2 stream holding the serialised data frame.

Derivation (Haberman's three attributes and its target, "survived 5 years or longer"):
  age      age at surgery (years), `age`
  year     year of surgery, `year` (1978-1993)
  nodes    number of positive lymph nodes, `nodes`
  survived5  1 if the patient was alive 5 years (1826.25 days = 5 x 365.25) after surgery, i.e. `dtime` >= 1826.25
           (`dtime` = days to death or last follow-up, `death` = 1 if died, of any cause, as Haberman's survival);
           0 if `death` = 1 and `dtime` < 1826.25.
  Rows censored before 5 years (`death` = 0 and `dtime` < 1826.25: alive at last contact, 5-year status unknown)
  are DROPPED (145 of 2,982), leaving 2,837 rows. Row order is the source's.
"""
import lzma
import struct
import sys
import warnings

import rdata

warnings.simplefilter("ignore")  # rdata warns that the .rdx index has no .rds extension
FIVE_YEARS = 5 * 365.25


def main(data_dir, out):
    index = rdata.conversion.convert(rdata.parser.parse_file(data_dir + "/Rdata.rdx"))
    off, length = (int(v) for v in index["variables"]["rotterdam"])
    with open(data_dir + "/Rdata.rdb", "rb") as f:
        f.seek(off)
        chunk = f.read(length)
    (size,) = struct.unpack(">I", chunk[:4])
    if chunk[4:5] != b"Z":
        raise SystemExit("unexpected compression tag %r" % chunk[4:5])
    # R's 'Z' chunks are raw LZMA2 streams (R_decompress3: lzma_raw_decoder, LZMA2 filter, preset 9 | extreme)
    raw = lzma.decompress(chunk[5:], format=lzma.FORMAT_RAW,
                          filters=[{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME}])
    if len(raw) != size:
        raise SystemExit("decompressed %d bytes, index says %d" % (len(raw), size))
    df = rdata.conversion.convert(rdata.parser.parse_data(raw))
    known = (df["dtime"] >= FIVE_YEARS) | (df["death"] == 1)
    df = df[known]
    with open(out, "w", newline="\n") as w:
        w.write("age,year,nodes,survived5\n")
        for age, year, nodes, dtime in zip(df["age"], df["year"], df["nodes"], df["dtime"]):
            w.write("%d,%d,%d,%d\n" % (age, year, nodes, 1 if dtime >= FIVE_YEARS else 0))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
