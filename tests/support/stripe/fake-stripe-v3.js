// The fake of https://js.stripe.com/v3/ that tests/support/stripe/fake-stripe.ts serves at /v3/: the calls
// Stripe.js makes, a card element of plain inputs (so tests can type in it) and a 3-D Secure dialog in the page.
(function () {
  const apiOrigin = new URL(document.currentScript.src).origin;
  const CONNECTION_ERROR = { type: "api_connection_error", message: "We could not reach the bank. Please try again." };
  const cardFields = new WeakMap();

  function luhnValid(digits) {
    let sum = 0;
    [...digits].reverse().forEach((digit, index) => {
      const value = Number(digit) * (index % 2 ? 2 : 1);
      sum += value > 9 ? value - 9 : value;
    });
    return digits.length >= 12 && sum % 10 === 0;
  }

  function brandOf(digits) {
    if (digits.startsWith("4")) return "visa";
    return /^(5[1-5]|2[2-7])/.test(digits) ? "mastercard" : "unknown";
  }

  /** The card typed in, or the first problem with it, as Stripe.js words it. */
  function check(fields) {
    const number = fields.number.value.replace(/\D/g, "");
    const expiry = fields.expiry.value.replace(/\D/g, "");
    const cvc = fields.cvc.value.replace(/\D/g, "");
    const month = Number(expiry.slice(0, 2));
    const year = 2000 + Number(expiry.slice(2, 4));
    const today = new Date();
    const problem = (field, code, message) => ({ field, error: { type: "validation_error", code, message } });
    const result = { empty: !number && !expiry && !cvc, brand: brandOf(number) };
    const found =
      (number.length < 16 && problem("number", "incomplete_number", "Your card number is incomplete.")) ||
      (!luhnValid(number) && problem("number", "invalid_number", "Your card number is invalid.")) ||
      (expiry.length < 4 && problem("expiry", "incomplete_expiry", "Your card's expiration date is incomplete.")) ||
      ((month < 1 || month > 12) &&
        problem("expiry", "invalid_expiry_month", "Your card's expiration month is invalid.")) ||
      (year < today.getFullYear() &&
        problem("expiry", "invalid_expiry_year_past", "Your card's expiration year is in the past.")) ||
      (year === today.getFullYear() &&
        month < today.getMonth() + 1 &&
        problem("expiry", "invalid_expiry_month_past", "Your card's expiration date is in the past.")) ||
      (cvc.length < 3 && problem("cvc", "incomplete_cvc", "Your card's security code is incomplete."));
    if (found) return { ...result, ...found };
    return { ...result, card: { number, exp_month: month, exp_year: year, cvc } };
  }

  function field(label, placeholder, autocomplete, flex, maxDigits, format) {
    const input = document.createElement("input");
    input.type = "text";
    input.inputMode = "numeric";
    input.autocomplete = autocomplete;
    input.placeholder = placeholder;
    input.setAttribute("aria-label", label);
    Object.assign(input.style, { flex, minWidth: "0", border: "0", outline: "0", padding: "0", font: "inherit" });
    input.style.background = "transparent";
    input.addEventListener("input", () => {
      input.value = format(input.value.replace(/\D/g, "").slice(0, maxDigits));
    });
    return input;
  }

  function createCardElement() {
    const handlers = {};
    const emit = (type, payload) => (handlers[type] || []).forEach((handler) => handler(payload));
    const wrapper = document.createElement("div");
    wrapper.setAttribute("data-fake-stripe-card", "");
    Object.assign(wrapper.style, {
      display: "flex",
      alignItems: "center",
      gap: "12px",
      boxSizing: "border-box",
      width: "100%",
      padding: "10px 12px",
      border: "1px solid #c4c9d0",
      borderRadius: "6px",
      background: "#fff",
      color: "#1a1f36",
      font: "16px system-ui, sans-serif",
    });
    const fields = {
      number: field("Card number", "1234 1234 1234 1234", "cc-number", "1 1 auto", 19, (digits) =>
        digits.replace(/(\d{4})(?=\d)/g, "$1 "),
      ),
      expiry: field("Expiration date", "MM / YY", "cc-exp", "0 0 4.5em", 4, (digits) =>
        digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits,
      ),
      cvc: field("CVC", "CVC", "cc-csc", "0 0 3em", 4, (digits) => digits),
    };
    wrapper.append(fields.number, fields.expiry, fields.cvc);

    /** Marks the field at fault; incomplete ones only once the person has left the element. */
    const report = (leaving) => {
      const result = check(fields);
      const shown = result.error && !result.empty && (leaving || !result.error.code.startsWith("incomplete"));
      for (const [name, input] of Object.entries(fields)) {
        const invalid = shown && result.field === name;
        input.setAttribute("aria-invalid", String(Boolean(invalid)));
        input.style.color = invalid ? "#df1b41" : "inherit";
      }
      emit("change", {
        elementType: "card",
        empty: result.empty,
        complete: !result.error,
        brand: result.brand,
        error: shown ? result.error : undefined,
        value: { postalCode: "" },
      });
      return result;
    };
    wrapper.addEventListener("input", () => report(false));
    wrapper.addEventListener("focusin", () => {
      wrapper.style.borderColor = "#635bff";
      emit("focus", { elementType: "card" });
    });
    wrapper.addEventListener("focusout", (event) => {
      if (wrapper.contains(event.relatedTarget)) return;
      wrapper.style.borderColor = "#c4c9d0";
      report(true);
      emit("blur", { elementType: "card" });
    });

    const element = {
      mount(target) {
        const host = typeof target === "string" ? document.querySelector(target) : target;
        if (!host) throw new Error(`fake Stripe.js: no element matches ${target} to mount the card element in`);
        host.append(wrapper);
        setTimeout(() => emit("ready", { elementType: "card" }));
      },
      unmount() {
        wrapper.remove();
      },
      destroy() {
        wrapper.remove();
        for (const type of Object.keys(handlers)) delete handlers[type];
      },
      on(type, handler) {
        (handlers[type] = handlers[type] || []).push(handler);
        return element;
      },
      off(type, handler) {
        handlers[type] = (handlers[type] || []).filter((known) => known !== handler);
        return element;
      },
      focus() {
        fields.number.focus();
      },
      blur() {
        wrapper.querySelector(":focus")?.blur();
      },
      clear() {
        for (const input of Object.values(fields)) input.value = "";
        report(false);
      },
    };
    cardFields.set(element, { check: () => report(true) });
    return element;
  }

  /** The 3-D Secure step of a test card: resolves "succeed" or "fail" as the person chooses. */
  function authenticate() {
    return new Promise((resolve) => {
      const dialog = document.createElement("dialog");
      dialog.setAttribute("aria-labelledby", "fake-stripe-3ds-title");
      Object.assign(dialog.style, {
        maxWidth: "22rem",
        padding: "1.5rem",
        border: "1px solid #c4c9d0",
        borderRadius: "8px",
        font: "16px system-ui",
      });
      const title = document.createElement("h2");
      title.id = "fake-stripe-3ds-title";
      title.textContent = "3D Secure authentication";
      Object.assign(title.style, { margin: "0 0 0.5rem", fontSize: "1.25rem" });
      const text = document.createElement("p");
      text.textContent = "Test mode: complete or fail the bank's authentication of this payment.";
      const buttons = document.createElement("div");
      Object.assign(buttons.style, { display: "flex", gap: "0.5rem", flexWrap: "wrap" });
      const finish = (result) => {
        dialog.close();
        dialog.remove();
        resolve(result);
      };
      for (const [label, result] of [
        ["Complete authentication", "succeed"],
        ["Fail authentication", "fail"],
      ]) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = label;
        button.addEventListener("click", () => finish(result));
        buttons.append(button);
      }
      // Closing the dialog (Escape) abandons the authentication, as closing Stripe's does.
      dialog.addEventListener("cancel", (event) => {
        event.preventDefault();
        finish("fail");
      });
      dialog.append(title, text, buttons);
      document.body.append(dialog);
      dialog.showModal();
    });
  }

  function encode(params, prefix) {
    return Object.entries(params)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => {
        const name = prefix ? `${prefix}[${key}]` : key;
        return typeof value === "object"
          ? encode(value, name)
          : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
      })
      .join("&");
  }

  window.Stripe = function Stripe(publishableKey) {
    /** The API's answer (an object or `{ error }`); throws CONNECTION_ERROR when there is none. */
    async function api(method, path, params) {
      const query = encode(params);
      try {
        const response = await fetch(`${apiOrigin}${path}${method === "GET" ? `?${query}` : ""}`, {
          method,
          headers: {
            Authorization: `Bearer ${publishableKey}`,
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body: method === "GET" ? undefined : query,
        });
        return await response.json();
      } catch {
        throw CONNECTION_ERROR;
      }
    }

    // A setup intent's secret starts with its id, "seti_…"; a payment intent's with "pi_…".
    const intentPath = (clientSecret) => {
      const id = clientSecret.split("_secret_")[0];
      return `/v1/${id.startsWith("seti_") ? "setup_intents" : "payment_intents"}/${id}`;
    };

    async function confirm(clientSecret, data) {
      let paymentMethod = data.payment_method;
      if (paymentMethod && typeof paymentMethod === "object") {
        const card = cardFields.get(paymentMethod.card);
        if (!card) throw new Error("fake Stripe.js: payment_method.card must be a card element made by elements()");
        const checked = card.check();
        if (checked.error) return { error: checked.error };
        const created = await api("POST", "/v1/payment_methods", {
          type: "card",
          card: checked.card,
          billing_details: paymentMethod.billing_details,
        });
        if (created.error) return { error: created.error };
        paymentMethod = created.id;
      }
      const path = intentPath(clientSecret);
      const confirmed = await api("POST", `${path}/confirm`, {
        client_secret: clientSecret,
        payment_method: paymentMethod,
        setup_future_usage: data.setup_future_usage,
      });
      if (confirmed.error || confirmed.status !== "requires_action") {
        return confirmed.error ? { error: confirmed.error } : { paymentIntent: confirmed };
      }
      const result = await authenticate();
      const after = await api("POST", `${path}/authenticate`, { client_secret: clientSecret, result });
      if (after.error) return { error: after.error };
      if (after.status === "succeeded") return { paymentIntent: after };
      return { error: { ...after.last_payment_error, payment_intent: after } };
    }

    /** `confirm` for a setup intent: Stripe.js answers `setupIntent` and `last_setup_error`. */
    async function confirmSetup(clientSecret, data) {
      const answer = await confirm(clientSecret, data);
      if (answer.paymentIntent) return { setupIntent: answer.paymentIntent };
      const { payment_intent: intent, ...error } = answer.error;
      return intent ? { error: { ...error, ...intent.last_setup_error, setup_intent: intent } } : { error };
    }

    const answering = (work) =>
      work.catch((error) => {
        if (error === CONNECTION_ERROR) return { error: CONNECTION_ERROR };
        throw error;
      });

    return {
      elements() {
        return {
          create(type) {
            if (type !== "card") throw new Error(`fake Stripe.js only makes card elements, not ${type}`);
            return createCardElement();
          },
        };
      },
      confirmCardPayment(clientSecret, data = {}) {
        return answering(confirm(clientSecret, data));
      },
      confirmCardSetup(clientSecret, data = {}) {
        return answering(confirmSetup(clientSecret, data));
      },
      retrievePaymentIntent(clientSecret) {
        return answering(
          api("GET", intentPath(clientSecret), { client_secret: clientSecret }).then((answer) =>
            answer.error ? { error: answer.error } : { paymentIntent: answer },
          ),
        );
      },
    };
  };
})();
