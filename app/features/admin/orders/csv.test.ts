import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "./csv";

describe("csvCell", () => {
  it("leaves plain text and numbers as they are", () => {
    expect(csvCell("Ada Lovelace")).toBe("Ada Lovelace");
    expect(csvCell(12)).toBe("12");
    expect(csvCell(null)).toBe("");
  });

  it("quotes text holding quotes, commas or line breaks, doubling the quotes", () => {
    expect(csvCell('Le "Grand" Hôtel')).toBe('"Le ""Grand"" Hôtel"');
    expect(csvCell("Dupont, Durand")).toBe('"Dupont, Durand"');
    expect(csvCell("ligne 1\nligne 2")).toBe('"ligne 1\nligne 2"');
    expect(csvCell("a\r\nb")).toBe('"a\r\nb"');
  });

  it("puts an apostrophe before text a spreadsheet would run as a formula", () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell("+33 6 12")).toBe("'+33 6 12");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tcmd")).toBe("'\tcmd");
    expect(csvCell("a=b")).toBe("a=b");
  });
});

describe("csvLine", () => {
  it("joins the cells with commas and ends the line with CRLF", () => {
    expect(csvLine(["FT-1", "Dupont, SA", 12.5, null])).toBe('FT-1,"Dupont, SA",12.5,\r\n');
  });
});
