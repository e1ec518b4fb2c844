"""The action tracker's one page: HTML, CSS and JavaScript, served inline (no file is served).

Large touch targets, one column on a phone (390 px), the seat map beside the controls on a tablet
(1280 px). The state comes pushed (server-sent events); every press waits for the table's verdict.
"""

PAGE_TEMPLATE = r"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Action tracker</title>
<style>
:root{--bg:#0f1318;--panel:#1a2029;--line:#2c3542;--text:#f2f4f7;--dim:#a9b3c1;--act:#ffd23f;--sel:#4cc9f0;
--ok:#52b788;--bad:#ff6b6b;--fold:#b5171e;--go:#2d6a4f;--raise:#1d4ed8}
*{box-sizing:border-box}body{margin:0;font:17px/1.35 system-ui,sans-serif;background:var(--bg);color:var(--text)}
header{display:flex;flex-wrap:wrap;gap:6px 18px;align-items:baseline;padding:10px 14px;background:#070a0e;
border-bottom:1px solid var(--line)}
header b{font-size:20px}#pot{color:var(--act);font-weight:700;font-size:20px}#board{font-size:22px;display:flex;gap:6px}
#board span{background:#f4f1e8;color:#111;border-radius:6px;padding:0 6px;font-weight:700}#board span.red{color:#c1121f}
.red{color:#ff7b7b}main{display:grid;grid-template-columns:1fr;gap:12px;padding:12px}
@media (min-width:900px){main{grid-template-columns:minmax(0,1.25fr) minmax(360px,1fr)}}
#seats{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:10px;align-content:start}
.seat{background:var(--panel);border:2px solid var(--line);border-radius:12px;padding:10px;min-height:96px;
cursor:pointer;text-align:left;color:var(--text);font:inherit}
.seat.toact{border-color:var(--act);box-shadow:0 0 0 2px var(--act) inset}.seat.sel{outline:4px solid var(--sel)}
.seat.out{opacity:.55}.seat.empty{border-style:dashed;color:var(--dim);min-height:0;padding:6px 10px}
.seat .top{display:flex;justify-content:space-between;gap:6px;font-weight:700}.seat .nm{overflow:hidden;
text-overflow:ellipsis;white-space:nowrap}.badge{display:inline-block;min-width:26px;padding:0 5px;border-radius:9px;
background:#fff;color:#000;font-size:14px;text-align:center;margin-left:3px}.badge.b{background:var(--act)}
.stack{font-size:20px;font-weight:700}.small{color:var(--dim);font-size:15px}.decl{color:var(--sel);font-size:15px}
section{background:var(--panel);border:1px solid var(--line);border-radius:12px;padding:12px}
h2{font-size:18px;margin:0 0 8px}.row{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}
button.big{min-height:56px;min-width:92px;flex:1 1 30%;font:700 19px system-ui,sans-serif;border:0;border-radius:10px;
color:#fff;background:var(--go);padding:6px 10px}button.big:disabled{opacity:.35}
button.fold{background:var(--fold)}button.raise{background:var(--raise)}button.grey{background:#3b4656}
button.preset{min-height:48px;flex:1 1 20%;font:600 16px system-ui,sans-serif;border:0;border-radius:10px;
background:#3b4656;color:#fff}
input{font:600 22px system-ui,sans-serif;padding:10px;border-radius:10px;border:2px solid var(--line);
background:#0b0f14;color:var(--text);width:100%}
#verdict{min-height:28px;font-weight:600;font-size:18px}#verdict.ok{color:var(--ok)}#verdict.bad{color:var(--bad)}
#ruling{border-color:var(--act);display:none}#ruling .rule{color:var(--dim);font-size:15px}
#pair{position:fixed;inset:0;background:var(--bg);display:none;place-items:center;padding:20px}
#pair div{max-width:420px;width:100%}.hint{color:var(--dim);font-size:15px}
#conn{font-size:14px;color:var(--dim)}
</style></head><body>
<header><b id="hand">Action tracker</b><span id="street"></span><span id="level" class="small"></span>
<span id="pot"></span><span id="board"></span><span id="conn"></span></header>
<main><div><div id="seats"></div></div>
<div>
<section id="ruling"><h2 id="rtitle"></h2><div id="rtext"></div><div class="rule" id="rrule"></div>
<div class="row"><button class="big grey" id="confirm">Confirm ruling</button></div></section>
<section id="actions"><h2 id="who">Waiting for the deal</h2><div id="limits" class="small"></div>
<div id="live"><div class="row"><button class="big fold" id="fold">Fold</button><button class="big" id="call">Check</button>
<button class="big raise" id="raise">Bet</button><button class="big raise" id="allin">All in</button></div>
<input id="amount" inputmode="decimal" autocomplete="off" placeholder="to: 1,200 or 1.2k" aria-label="amount (the seat's total for the round)">
<div class="row" id="presets"></div></div>
<div id="verdict" role="status" aria-live="polite"></div>
<div class="row"><button class="big grey" id="undo">Undo last</button><button class="big grey" id="rounddone">Round done</button><button class="big grey" id="misdeal">Misdeal</button></div>
</section>
<section id="players"><h2 id="ptitle">Players</h2><div class="hint" id="phint">Tap a seat to manage it.</div>
<div id="pform" style="display:none">
<div class="row"><input id="pname" maxlength="24" placeholder="name"><button class="preset" id="savename">Save name</button></div>
<div class="row"><input id="pamount" inputmode="decimal" autocomplete="off" placeholder="chips, e.g. 10,000"></div>
<div class="row"><button class="preset" id="rebuy">Rebuy</button><button class="preset" id="addon">Add-on</button>
<button class="preset" id="setstack">Set stack</button></div>
<div class="row"><button class="preset" id="seatin">Seat in</button><button class="preset" id="seatmoved">Seat in (moved here)</button></div>
<div class="row"><button class="preset" id="bust">Bust out</button><button class="preset" id="unseat">Unseat</button></div>
</div></section>
<div class="small" id="notes"></div>
</div></main>
<div id="pair"><div><h2>Pair this device</h2><p class="hint">Type the code shown on the table's screen.</p>
<input id="code" inputmode="numeric" autocomplete="one-time-code" placeholder="123 456">
<div class="row"><button class="big" id="pairbtn">Pair</button></div><div id="pairmsg" class="hint"></div></div></div>
<script>
"use strict";
/*AMOUNT_JS*/
const $=id=>document.getElementById(id);
const PLAYER=["fold","check","call","bet","raise","allin"];
let S=null, sel=null, busy=false;
const fmt=n=>n==null?"-":Number(n).toLocaleString("en-US");
const SUITS={s:"\u2660",h:"\u2665",d:"\u2666",c:"\u2663"};
function card(c){const span=document.createElement("span");span.textContent=c.slice(0,-1).replace("T","10")+SUITS[c.slice(-1)];
 if("hd".includes(c.slice(-1)))span.className="red";return span}
function seatName(n){const v=S&&S.seats.find(x=>x.seat===n);return v&&v.name?`Seat ${n} (${v.name})`:`Seat ${n}`}
function say(text,ok){const v=$("verdict");v.textContent=text;v.className=ok?"ok":"bad"}
async function post(url,body){
 try{const r=await fetch(url,{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify(body)});
  try{return await r.json()}catch(e){return {ok:false,refused:["the table answered "+r.status]}}}
 catch(e){return {ok:false,refused:["no answer from the table: check the network"]}}}
function tell(j,what){
 if(j.taken){const parts=[...j.rulings.map(r=>r.ruling.replace(/_/g," ").toUpperCase()+": "+r.remedy),...j.said];
  say((what?what+": taken":"Taken")+(parts.length?" \u2014 "+parts.join(" "):""),true)}
 else say("Refused: "+(j.refused&&j.refused.length?j.refused.join(" "):(j.error||"no reason given")),false)}
async function press(name,extra){
 if(!S||busy)return;const body={name,hand:S.hand,count:S.count,...(extra||{})};
 if(PLAYER.includes(name)&&sel!==null&&sel!==S.to_act)body.seat=sel;
 busy=true;say("Sending "+name+"\u2026",true);const j=await post("press",body);busy=false;
 tell(j,name+(body.amount?" "+body.amount:"")+(body.seat?" for "+seatName(body.seat):""));
 if(j.taken&&PLAYER.includes(name)){$("amount").value="";sel=null}}
function amountOr(fallback){const text=$("amount").value;if(!text.trim())return fallback;return String(parseAmount(text))}
$("fold").onclick=()=>press("fold");
$("call").onclick=()=>press(actingOutOfTurn()||(S&&S.legal&&S.legal.to_call)?"call":"check");  // a call with nothing to call is a check
$("allin").onclick=()=>press("allin");
$("raise").onclick=()=>{try{const L=S&&S.legal&&!actingOutOfTurn()?S.legal:null;
 const amount=amountOr(L&&L.chips?String(L.min_to):"");
 if(L&&L.chips&&amount&&Number(amount)>L.max_to)throw new Error(L.limit?`${fmt(Number(amount))} is over the limit (${L.limit}): at most ${fmt(L.max_to)}`:`${fmt(Number(amount))} is more than the ${fmt(L.max_to)} ${seatName(L.seat)} has in all`);
 press(L&&L.word==="bet"?"bet":"raise",amount?{amount}:{})}catch(e){say("Not sent: "+e.message,false)}};
$("undo").onclick=()=>press("undo");$("rounddone").onclick=()=>{if(confirm("Close this betting round?"))press("round_done")};$("misdeal").onclick=()=>{if(confirm("Call a misdeal?"))press("misdeal")};
$("confirm").onclick=()=>press("confirm");
function actingOutOfTurn(){return S&&sel!==null&&S.to_act!==null&&sel!==S.to_act}
async function player(op,extra){if(sel===null)return;const j=await post("players",{op,seat:sel,...(extra||{})});tell(j,op.replace("_","-"))}
function chipsFor(op){try{return String(parseAmount($("pamount").value))}catch(e){say("Not sent: "+e.message,false);return null}}
$("savename").onclick=()=>player("name",{name:$("pname").value});
for(const [id,op] of [["rebuy","rebuy"],["addon","add_on"],["setstack","stack"],["seatin","seat"]])
 $(id).onclick=()=>{const amount=chipsFor(op);if(amount!==null)player(op,{amount})};
$("seatmoved").onclick=()=>{const amount=chipsFor("seat");if(amount!==null)player("seat",{amount,moved:true})};
$("bust").onclick=()=>player("bust");$("unseat").onclick=()=>{if(confirm("Unseat "+seatName(sel)+"?"))player("unseat")};
function render(){
 if(!S)return;$("hand").textContent=S.hand?"Hand "+S.hand:"No hand yet";
 $("street").textContent=(S.street&&!S.between_hands?S.street:S.phase).toUpperCase();
 $("level").textContent=S.level?"Blinds "+S.level:"";
 let pot=S.pot==null?"":"POT "+fmt(S.pot);
 if(S.pots.length>1)pot+=" ("+S.pots.map((p,i)=>(i?"side ":"main ")+fmt(p.amount)).join(" + ")+")";
 if(S.uncalled)pot+=" \u00b7 "+fmt(S.uncalled.amount)+" back to seat "+S.uncalled.seat;
 $("pot").textContent=pot;$("board").replaceChildren(...S.board.map(card));
 const seats=$("seats");seats.replaceChildren();
 const shown=[...S.seats];for(let n=1;n<=10;n++)if(!shown.find(v=>v.seat===n)&&S.phase==="idle")shown.push({seat:n,state:"empty"});
 shown.sort((a,b)=>a.seat-b.seat);
 for(const v of shown){const b=document.createElement("button");b.className="seat";b.dataset.seat=v.seat;
  if(v.state==="empty"){b.classList.add("empty");b.textContent=`Seat ${v.seat}: empty`}
  else{if(v.to_act)b.classList.add("toact");if(["folded","dead","sitting out","no chips"].includes(v.state))b.classList.add("out");
   const top=document.createElement("div");top.className="top";const nm=document.createElement("span");nm.className="nm";
   nm.textContent=v.seat+" \u00b7 "+(v.name||"Seat "+v.seat);const bd=document.createElement("span");
   for(const [f,t] of [["button","D"],["small_blind","SB"],["big_blind","BB"]])if(v[f]){const x=document.createElement("span");
    x.className="badge"+(t==="D"?"":" b");x.textContent=t;bd.append(x)}
   top.append(nm,bd);const st=document.createElement("div");st.className="stack";st.textContent=v.stack==null?"":fmt(v.stack);
   const line=document.createElement("div");line.className="small";
   line.textContent=[v.to_act?"TO ACT":"",v.state==="active"||v.state==="seated"?"":v.state.toUpperCase(),v.last_action||(v.bet?"in "+fmt(v.bet):"")].filter(Boolean).join(" \u00b7 ");
   b.append(top,st,line);if(v.declared){const d=document.createElement("div");d.className="decl";d.textContent=v.declared;b.append(d)}}
  if(sel===v.seat)b.classList.add("sel");b.onclick=()=>{sel=sel===v.seat?null:v.seat;render()};seats.append(b)}
 const L=S.legal, oot=actingOutOfTurn(), acting=oot?sel:(L?L.seat:null);
 $("who").textContent=acting==null?(S.phase==="showdown"?"Hand over: showdown":S.between_hands?"Between hands":S.phase==="board"?"Dealing the "+(S.street||"board"):"No one to act"):
  (oot?seatName(sel)+": acting OUT OF TURN (the action is on seat "+S.to_act+")":seatName(acting)+" to act");
 const live=acting!=null&&S.phase==="betting";
 for(const id of ["fold","call","raise","allin"])$(id).disabled=!live;$("live").style.display=live?"block":"none";
 $("presets").replaceChildren();$("limits").textContent="";
 if(L&&L.chips&&!oot){$("call").textContent=L.to_call?"Call "+fmt(L.to_call):"Check";
  $("raise").textContent=(L.word==="bet"?"Bet":"Raise to");$("raise").disabled=!L.may_raise;
  $("allin").textContent="All in "+fmt(L.allin_to);$("allin").disabled=!L.allin_ok;
  $("limits").textContent=(L.to_call?"to call "+fmt(L.to_call)+" \u00b7 ":"")+(L.may_raise?L.word+" from "+fmt(L.min_to)+" to "+fmt(L.max_to):"may not raise");
  for(const [k,label] of [["min","Min"],["half_pot","\u00bd pot"],["pot","Pot"],["allin","All in"]])if(L.presets[k]!=null){
   const p=document.createElement("button");p.className="preset";p.textContent=label+" "+fmt(L.presets[k]);
   p.onclick=()=>{$("amount").value=fmt(L.presets[k])};$("presets").append(p)}}
 else{$("call").textContent="Check / call";$("raise").textContent="Bet / raise";$("allin").textContent="All in"}
 $("undo").disabled=!S.hand;$("misdeal").disabled=S.between_hands;$("rounddone").disabled=S.phase!=="betting";
 const r=S.ruling;$("ruling").style.display=r?"block":"none";
 if(r){$("rtitle").textContent=r.ruling.replace(/_/g," ").toUpperCase();$("rtext").textContent=r.remedy;$("rrule").textContent=r.rule}
 const v=sel===null?null:S.seats.find(x=>x.seat===sel);$("pform").style.display=sel===null?"none":"block";
 $("phint").style.display=sel===null?"block":"none";$("ptitle").textContent=sel===null?"Players":seatName(sel);
 if(v&&document.activeElement!==$("pname"))$("pname").value=v.name||"";
 const empty=!v;$("seatin").disabled=!empty;$("seatmoved").disabled=!empty;
 for(const id of ["rebuy","addon","setstack"])$(id).disabled=empty||!S.between_hands;
 $("bust").disabled=empty||v.stack!==0;$("unseat").disabled=empty;$("savename").disabled=empty;
 $("notes").textContent=S.notices.join(" \u00b7 ")}
function listen(){const es=new EventSource("events");
 es.addEventListener("state",e=>{S=JSON.parse(e.data);$("conn").textContent="";render()});
 es.onerror=async()=>{$("conn").textContent="reconnecting\u2026";const r=await fetch("state");if(r.status===401){es.close();pair()}}}
function pair(){$("pair").style.display="grid";$("code").focus()}
$("pairbtn").onclick=async()=>{const j=await post("pair",{code:$("code").value});
 if(j.ok){$("pair").style.display="none";const r=await fetch("state");S=await r.json();render();listen()}else $("pairmsg").textContent=j.error||"not paired"};
$("code").addEventListener("keydown",e=>{if(e.key==="Enter")$("pairbtn").click()});
(async()=>{const r=await fetch("state");if(r.status===401){pair();return}S=await r.json();render();listen()})();
</script></body></html>"""
