// The hosted checkout page's script: it checks what the buyer typed, pays the session through the public API with the
// session's public key, and shows the outcome. Card data goes to the charge call only; nothing is stored or logged.
(function () {
  'use strict';

  var configElement = document.getElementById('checkout-config');
  if (!configElement) return;
  var config = JSON.parse(configElement.textContent || '{}');
  var form = document.getElementById('checkout-form');
  var message = document.getElementById('message');
  var payButton = document.getElementById('pay');
  var result = document.getElementById('result');
  var paymentSection = document.getElementById('payment');
  var CARD_TYPES = ['credit', 'debit', 'voucher'];

  var DECLINES = {
    insufficient_funds: 'The card has insufficient funds.',
    invalid_cvv: 'The security code is not right.',
    expired_card: 'The card has expired.',
    restricted_card: 'The card cannot be used for this purchase.',
    lost_card: 'The card cannot be used. Please contact your bank.',
    stolen_card: 'The card cannot be used. Please contact your bank.',
    pickup_card: 'The card cannot be used. Please contact your bank.',
    not_permitted: 'The card does not allow this purchase.',
    transaction_not_allowed: 'The card does not allow this purchase.',
    card_not_supported: 'This card is not accepted here.',
    invalid_amount: 'The bank refused the amount.',
    generic: 'The bank declined the payment.',
  };

  function money(amount) {
    try {
      return new Intl.NumberFormat('pt-BR', { style: 'currency', currency: config.currency }).format(amount / 100);
    } catch {
      return config.currency + ' ' + (amount / 100).toFixed(2);
    }
  }

  function digits(value) {
    return String(value || '').replace(/\D/g, '');
  }

  function luhnValid(number) {
    var sum = 0;
    var double = false;
    for (var i = number.length - 1; i >= 0; i--) {
      var d = number.charCodeAt(i) - 48;
      if (double) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
      double = !double;
    }
    return sum % 10 === 0;
  }

  /** MM/YY or MM/YYYY, not in the past: the API's MM/YYYY, or null. */
  function expiration(value) {
    var match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value || '');
    if (!match) return null;
    var month = Number(match[1]);
    var year = Number(match[2].length === 2 ? '20' + match[2] : match[2]);
    if (month < 1 || month > 12) return null;
    var now = new Date();
    if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) return null;
    return (month < 10 ? '0' : '') + month + '/' + year;
  }

  function randomKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return 'checkout-' + Array.prototype.map.call(bytes, function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join('');
  }

  function selectedType() {
    var checked = form.querySelector('input[name="paymentType"]:checked');
    return checked ? checked.value : config.methods[0].paymentType;
  }

  function methodOf(type) {
    for (var i = 0; i < config.methods.length; i++) if (config.methods[i].paymentType === type) return config.methods[i];
    return null;
  }

  function isCard(type) {
    return CARD_TYPES.indexOf(type) >= 0;
  }

  function field(id) {
    return document.getElementById(id);
  }

  function setError(id, text) {
    var input = field(id);
    var error = field(id + '-error');
    if (!input || !error) return;
    error.textContent = text || '';
    if (text) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  function show(kind, text) {
    message.className = 'message' + (kind ? ' message-' + kind : '');
    message.textContent = text || '';
  }

  /** Shows only the fields the chosen method needs. */
  function applyMethod() {
    var type = selectedType();
    var card = form.querySelector('[data-for="card"]');
    var buyer = form.querySelector('[data-for="buyer"]');
    var installments = form.querySelector('[data-for="credit"]');
    if (card) card.hidden = !isCard(type);
    if (buyer) buyer.hidden = isCard(type);
    if (installments) installments.hidden = type !== 'credit';
    show('', '');
  }

  function validCard() {
    var problems = 0;
    var number = digits(field('cardNumber').value);
    var ok = number.length >= 12 && number.length <= 19 && luhnValid(number);
    setError('cardNumber', ok ? '' : 'Check the card number.');
    if (!ok) problems++;
    var name = field('cardHolderName').value.trim();
    setError('cardHolderName', name ? '' : 'Type the name as it is on the card.');
    if (!name) problems++;
    var expires = expiration(field('cardExpiration').value);
    setError('cardExpiration', expires ? '' : 'Type a valid expiry date as MM/YY.');
    if (!expires) problems++;
    var cvv = digits(field('cardCvv').value);
    var cvvOk = cvv.length >= 3 && cvv.length <= 4 && cvv === field('cardCvv').value.trim();
    setError('cardCvv', cvvOk ? '' : 'Type the 3 or 4 digit security code.');
    if (!cvvOk) problems++;
    if (problems > 0) return null;
    return { cardHolderName: name, cardNumber: number, cardCvv: cvv, cardExpirationDate: expires };
  }

  function validBuyer() {
    var problems = 0;
    var name = field('buyerName').value.trim();
    setError('buyerName', name ? '' : 'Type your full name.');
    if (!name) problems++;
    var email = field('buyerEmail').value.trim();
    var emailOk = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
    setError('buyerEmail', emailOk ? '' : 'Type a valid e-mail address.');
    if (!emailOk) problems++;
    var taxId = digits(field('buyerDocument').value);
    var documentOk = taxId.length === 11 || taxId.length === 14;
    setError('buyerDocument', documentOk ? '' : 'Type your CPF (11 digits) or CNPJ (14 digits).');
    if (!documentOk) problems++;
    if (problems > 0) return null;
    return { name: name, email: email, document: { type: taxId.length === 11 ? 'cpf' : 'cnpj', number: taxId, country: 'BR' } };
  }

  function inDays(days) {
    var date = new Date(Date.now() + days * 86400000);
    return date.toISOString().slice(0, 10);
  }

  function requestBody(type) {
    var method = methodOf(type);
    var paymentMethod = { paymentType: type };
    if (isCard(type)) {
      var card = validCard();
      if (!card) return null;
      if (type === 'credit') paymentMethod.installments = field('installments') ? Number(field('installments').value) : 1;
      return { paymentMethod: paymentMethod, paymentSource: { sourceType: 'card', card: card } };
    }
    var customer = validBuyer();
    if (!customer) return null;
    if (type === 'pix' && method.expiresIn) paymentMethod.expiresIn = method.expiresIn;
    if (type === 'boleto') {
      paymentMethod.expiresDate = method.expiresDate || inDays(3);
      if (method.instructions) paymentMethod.instructions = method.instructions;
    }
    return { paymentMethod: paymentMethod, paymentSource: { sourceType: 'customer', customer: customer } };
  }

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    for (var name in attributes) node.setAttribute(name, attributes[name]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function copyButton(target, label) {
    var button = element('button', { type: 'button', class: 'secondary' }, label);
    button.addEventListener('click', function () {
      target.select();
      var done = function () { button.textContent = 'Copied'; };
      if (navigator.clipboard) navigator.clipboard.writeText(target.value).then(done, function () { document.execCommand('copy'); done(); });
      else { document.execCommand('copy'); done(); }
    });
    return button;
  }

  /** Replaces the form with the outcome: approved, Pix to pay, boleto to pay, or in progress. */
  function finish(charge) {
    paymentSection.hidden = true;
    result.hidden = false;
    result.textContent = '';
    var method = charge.paymentMethod || {};
    if (charge.status === 'authorized' || charge.status === 'pre_authorized') {
      result.className = 'card result result-success';
      result.setAttribute('data-outcome', 'approved');
      result.appendChild(element('h2', {}, 'Payment approved'));
      result.appendChild(element('p', {}, 'Thank you! Your payment of ' + money(charge.amount) + ' was approved.'));
      result.appendChild(element('p', { class: 'reference' }, 'Payment reference: ' + charge.id));
    } else if (method.paymentType === 'pix' && method.qrCodeData) {
      result.className = 'card result';
      result.setAttribute('data-outcome', 'pix');
      result.appendChild(element('h2', {}, 'Pay with Pix'));
      result.appendChild(element('p', {}, 'Scan the QR code with your bank app, or copy the Pix code below. The order is confirmed as soon as the payment arrives.'));
      result.appendChild(element('img', { class: 'qr', src: '/checkout/' + config.sessionId + '/charges/' + charge.id + '/pix.svg', alt: 'Pix QR code for ' + money(charge.amount), width: '240', height: '240' }));
      var code = element('textarea', { id: 'pix-code', readonly: 'readonly', rows: '4', 'aria-label': 'Pix copy-paste code' });
      code.value = method.qrCodeData;
      result.appendChild(code);
      result.appendChild(copyButton(code, 'Copy the Pix code'));
    } else if (method.paymentType === 'boleto' && (method.digitableLine || method.barcodeData)) {
      result.className = 'card result';
      result.setAttribute('data-outcome', 'boleto');
      result.appendChild(element('h2', {}, 'Pay the boleto'));
      result.appendChild(element('p', {}, 'Pay it in your bank app or at any bank' + (method.expiresDate ? ' by ' + method.expiresDate : '') + '. The order is confirmed once the payment clears.'));
      var line = element('input', { id: 'boleto-line', type: 'text', readonly: 'readonly', 'aria-label': 'Boleto digitable line' });
      line.value = method.digitableLine || method.barcodeData;
      result.appendChild(line);
      result.appendChild(copyButton(line, 'Copy the digitable line'));
    } else {
      result.className = 'card result';
      result.setAttribute('data-outcome', 'pending');
      result.appendChild(element('h2', {}, 'Payment in progress'));
      result.appendChild(element('p', {}, 'Your payment was received and is being confirmed. You do not need to pay again.'));
    }
    result.focus();
  }

  function failure(status, body) {
    var error = (body && body.error) || {};
    if (status === 402) {
      var reason = DECLINES[error.declinedCode] || DECLINES.generic;
      return 'Payment declined. ' + reason + ' Please check the details or use another card.';
    }
    if (status === 422 && (error.businessCode === 'session_disabled' || error.businessCode === 'multiple_payments_limit_reached')) {
      return 'This payment link no longer takes payments. Please contact the store.';
    }
    if (status === 422 && error.businessCode === 'payment_method_not_allowed') return 'This payment method is not accepted for this order.';
    if (status === 400) {
      var details = (error.details || []).map(function (d) { return d.message ? d.field + ' ' + d.message : d.field; });
      return 'Please check your details.' + (details.length ? ' (' + details.join('; ') + ')' : '');
    }
    if (status === 429) return 'Too many attempts. Please wait a moment and try again.';
    if (status === 409 && error.key === 'session_payments_in_progress') return 'Other payments of this order are being processed. Please try again in a moment.';
    if (status === 409) return 'Your payment is still being processed. Please wait a moment.';
    return 'We could not complete the payment right now. Nothing was charged; please try again.';
  }

  var attemptKey = null;
  var lastBody = null;

  // A 409 says the payment cannot be answered yet: other buyers' payments hold the order's places for a moment
  // (session_payments_in_progress), or this same payment is still being made. The page asks again by itself, with
  // the same key (never a second charge), waiting a little longer each time: the Retry-After the answer gives, else
  // RETRY_DELAYS_MS, for RETRY_BUDGET_MS in all before it says so and lets the buyer try again.
  var RETRY_DELAYS_MS = [500, 1000, 2000, 3000, 5000];
  var RETRY_BUDGET_MS = 90000;

  function retryDelay(response, retries) {
    var header = (response.headers.get('Retry-After') || '').trim();
    if (/^\d{1,4}$/.test(header)) return Math.min(Number(header) * 1000, 10000);
    return RETRY_DELAYS_MS[Math.min(retries, RETRY_DELAYS_MS.length - 1)];
  }

  function postCharge(serialized) {
    return fetch('/v1/sessions/' + encodeURIComponent(config.sessionId) + '/charge', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Client-Id': config.clientId,
        'X-Api-Key': config.publicKey,
        'X-Idempotency-Key': attemptKey,
      },
      body: serialized,
      credentials: 'omit',
      cache: 'no-store',
    }).then(function (response) {
      return response.text().then(function (text) {
        var parsed = null;
        try { parsed = text ? JSON.parse(text) : null; } catch { parsed = null; }
        return { status: response.status, body: parsed, response: response };
      });
    });
  }

  /** The charge, asked again after each 409 within the budget: the first answer that is not a 409, or the last 409. */
  function chargeUntilAnswered(serialized) {
    var started = Date.now();
    var retries = 0;
    function attempt() {
      return postCharge(serialized).then(function (answer) {
        if (answer.status !== 409) return answer;
        var delay = retryDelay(answer.response, retries);
        if (Date.now() - started + delay > RETRY_BUDGET_MS) return answer;
        retries += 1;
        var error = (answer.body && answer.body.error) || {};
        show('info', error.key === 'session_payments_in_progress'
          ? 'Other buyers are paying this order right now. Your payment goes through as soon as a place is free…'
          : 'Your payment is still being processed…');
        payButton.setAttribute('data-retries', String(retries));
        return new Promise(function (resolve) { setTimeout(resolve, delay); }).then(attempt);
      });
    }
    return attempt();
  }

  function submit(event) {
    event.preventDefault();
    if (payButton.disabled) return;
    show('', '');
    var type = selectedType();
    var body = requestBody(type);
    if (!body) {
      show('error', 'Please correct the highlighted fields.');
      var invalid = form.querySelector('[aria-invalid="true"]');
      if (invalid) invalid.focus();
      return;
    }
    // A retry of the same payment keeps its key, so it is never charged twice; a changed payment gets a new one.
    var serialized = JSON.stringify(body);
    if (serialized !== lastBody) {
      attemptKey = randomKey();
      lastBody = serialized;
    }
    payButton.disabled = true;
    payButton.setAttribute('aria-busy', 'true');
    show('info', 'Processing your payment…');
    chargeUntilAnswered(serialized)
      .then(function (answer) {
        payButton.disabled = false;
        payButton.removeAttribute('aria-busy');
        var charge = answer.body;
        if (answer.status === 201 && charge && charge.status !== 'failed' && charge.status !== 'canceled' && charge.status !== 'voided') {
          finish(charge);
          return;
        }
        if (answer.status === 201) {
          // A charge that ended declined: the same message as a 402, from its declinedCode.
          lastBody = null;
          show('error', failure(402, { error: { declinedCode: charge && charge.declinedCode } }));
          return;
        }
        if (answer.status === 402) lastBody = null;
        show('error', failure(answer.status, answer.body));
      })
      .catch(function () {
        payButton.disabled = false;
        payButton.removeAttribute('aria-busy');
        show('error', 'We could not reach the payment service. Check your connection and try again.');
      });
  }

  var numberInput = field('cardNumber');
  if (numberInput) {
    // Groups of four as the buyer types, the way the number is printed on the card.
    numberInput.addEventListener('input', function () {
      var value = digits(numberInput.value).slice(0, 19);
      numberInput.value = value.replace(/(\d{4})(?=\d)/g, '$1 ');
    });
  }
  var radios = form.querySelectorAll('input[name="paymentType"]');
  for (var i = 0; i < radios.length; i++) radios[i].addEventListener('change', applyMethod);
  form.addEventListener('submit', submit);
  applyMethod();
})();
