"""The one amount parser of the pages: what the operator types ("1,200", "1.2k", full-width digits) to whole chips.

The page runs the same grammar in JavaScript (`AMOUNT_JS`, served with the page) to refuse a bad
amount in words before sending; the server parses again with `parse_amount` and never takes the
page's word for it. tests/web/test_amounts.py runs both over the same cases.

>>> parse_amount("1,200"), parse_amount("1.2k"), parse_amount(" 12 000 "), parse_amount("\uff12\uff15\uff10")
(1200, 1200, 12000, 250)
>>> parse_amount("1,2")
Traceback (most recent call last):
ValueError: "1,2": commas go between groups of three digits (1,200)
"""

from __future__ import annotations

import re
import unicodedata

MAX_CHIPS = 10**9
_SPACES = re.compile(r"[\s\u00a0\u2009\u202f_']")
_GROUPED = re.compile(r"\d{1,3}(,\d{3})+", re.ASCII)  # ASCII digits only, as JavaScript's \d
_PLAIN = re.compile(r"\d+", re.ASCII)
_SHORT = re.compile(r"(\d+(?:\.\d+)?)([km])", re.IGNORECASE | re.ASCII)
_SCALE = {"k": 1000, "m": 1_000_000}


def parse_amount(text: str) -> int:
    """Whole chips from what was typed; ValueError naming what is wrong and how to write it."""
    shown = text.strip()
    plain = _SPACES.sub("", unicodedata.normalize("NFKC", text))
    if not plain:
        raise ValueError("no amount: type the chips, e.g. 1200, 1,200 or 1.2k")
    if _PLAIN.fullmatch(plain):
        value = int(plain)
    elif _GROUPED.fullmatch(plain):
        value = int(plain.replace(",", ""))
    elif "," in plain and re.fullmatch(r"[\d,]+", plain, re.ASCII):
        raise ValueError(f'"{shown}": commas go between groups of three digits (1,200)')
    elif match := _SHORT.fullmatch(plain):
        number, unit = match.groups()
        whole, _, frac = number.partition(".")
        scale = _SCALE[unit.lower()]
        places = len(str(scale)) - 1
        if len(frac) > places:
            raise ValueError(f'"{shown}" is not a whole number of chips')
        value = int(whole) * scale + int((frac or "0").ljust(places, "0"))
    elif re.fullmatch(r"\d+\.\d+", plain, re.ASCII):
        raise ValueError(f'"{shown}" is not a whole number of chips (write 1.2k for 1,200)')
    else:
        raise ValueError(f'"{shown}" is not an amount: use digits, e.g. 1200, 1,200 or 1.2k')
    if value <= 0:
        raise ValueError("the amount must be more than 0")
    if value >= MAX_CHIPS:
        raise ValueError(f'"{shown}" is more chips than any table holds')
    return value


# The same grammar for the page, step for step (String.normalize("NFKC") is the same normalisation).
AMOUNT_JS = r"""
function parseAmount(text){
  const shown=text.trim();
  const plain=text.normalize("NFKC").replace(/[\s\u00a0\u2009\u202f_']/g,"");
  if(!plain) throw new Error("no amount: type the chips, e.g. 1200, 1,200 or 1.2k");
  let value, m;
  if(/^\d+$/.test(plain)) value=Number(plain);
  else if(/^\d{1,3}(,\d{3})+$/.test(plain)) value=Number(plain.replace(/,/g,""));
  else if(/^[\d,]+$/.test(plain) && plain.includes(","))
    throw new Error('"'+shown+'": commas go between groups of three digits (1,200)');
  else if((m=/^(\d+(?:\.\d+)?)([km])$/i.exec(plain))){
    const scale={k:1000,m:1000000}[m[2].toLowerCase()], places=String(scale).length-1;
    const [whole,frac=""]=m[1].split(".");
    if(frac.length>places) throw new Error('"'+shown+'" is not a whole number of chips');
    value=Number(whole)*scale+Number((frac||"0").padEnd(places,"0"));
  }
  else if(/^\d+\.\d+$/.test(plain))
    throw new Error('"'+shown+'" is not a whole number of chips (write 1.2k for 1,200)');
  else throw new Error('"'+shown+'" is not an amount: use digits, e.g. 1200, 1,200 or 1.2k');
  if(value<=0) throw new Error("the amount must be more than 0");
  if(value>=1e9) throw new Error('"'+shown+'" is more chips than any table holds');
  return value;
}
"""
