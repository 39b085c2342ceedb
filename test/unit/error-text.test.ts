// What the client says of an error body, whatever shape a service (or what stands in front of it)
// gives it: one line, the message of a JSON body, an HTML page's title, plain text as it is.
import { errorText, fsErrorOf, isFsErrorAnswer } from "mediahost-contract";
import { describe, expect, it } from "vitest";
import { GATEWAY_PAGE } from "../../emulator/variants";

describe("errorText", () => {
  it("reads a hapi body's message, then its error", () => {
    expect(errorText('{"statusCode":400,"error":"Bad Request","message":"\\"foo\\" is not allowed"}')).toBe(
      '"foo" is not allowed',
    );
    expect(errorText('{"statusCode":502,"error":"Bad Gateway"}')).toBe("Bad Gateway");
  });

  it("reads a gateway's HTML page by its title, on one line, saying it is not the service's", () => {
    const text = errorText(GATEWAY_PAGE);
    expect(text).toBe(
      "502 Bad Gateway (an HTML page, not the service's answer: a gateway or proxy in front of it)",
    );
    expect(errorText("<!DOCTYPE html>\n<html><body><h1>Service\n Unavailable</h1></body></html>")).toMatch(
      /^Service Unavailable \(an HTML page/,
    );
  });

  it("puts plain text on one line, and cuts a long one", () => {
    expect(errorText("Not Found:\n  Custom domain\tnot found")).toBe("Not Found: Custom domain not found");
    const long = errorText("x".repeat(1000));
    expect(long.length).toBeLessThanOrEqual(301);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("a file-system error answered as a success", () => {
  it("is one on an operation that answers JSON only when its message is a documented one", () => {
    expect(
      isFsErrorAnswer(fsErrorOf('{"name":"NoSuchFileError","message":"No such file or directory: /a"}')),
    ).toBe(true);
    expect(isFsErrorAnswer(fsErrorOf('{"name":"Widget","message":"hello"}'))).toBe(false);
    expect(isFsErrorAnswer(undefined)).toBe(false);
  });
});
