// The action tracker's page: the state pushed (server-sent events), every press waits for the table's verdict.
"use strict";
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
  if(r.status===401){pair();return {ok:false,refused:["this device is no longer paired"]}}
  try{return await r.json()}catch(e){return {ok:false,refused:["the table answered "+r.status]}}}
 catch(e){return {ok:false,refused:["no answer from the table: check the network"]}}}
function tell(j,what){  // the table's verdict on this press, as the core gave it: taken, ruled, or refused and why
 if(j.taken){const parts=[...j.rulings.map(r=>r.ruling.replace(/_/g," ").toUpperCase()+": "+r.remedy),...j.said];
  const word=j.verdict==="ruled"?"ruled":"taken";
  say((what?what+": "+word:word[0].toUpperCase()+word.slice(1))+(parts.length?" \u2014 "+parts.join(" "):""),true)}
 else say("Refused: "+(j.refused&&j.refused.length?j.refused.join(" "):(j.error||"no reason given")),false)}
async function press(name,extra){
 if(!S||busy)return;const body={name,hand:S.hand,count:S.count,...(extra||{})};
 if(PLAYER.includes(name)&&sel!==null&&sel!==S.to_act)body.seat=sel;
 busy=true;say("Sending "+name+"\u2026",true);const j=await post("press",body);busy=false;
 tell(j,name+(body.amount?" "+body.amount:"")+(body.seat?" for "+seatName(body.seat):""));
 if(j.taken&&PLAYER.includes(name)){$("amount").value="";sel=null;render()}}
function amountOr(fallback){const text=$("amount").value;if(!text.trim())return fallback;return String(parseAmount(text))}
$("fold").onclick=()=>press("fold");
$("call").onclick=()=>press(actingOutOfTurn()||(S&&S.legal&&S.legal.to_call)?"call":"check");  // a call with nothing to call is a check
$("allin").onclick=()=>press("allin");
$("raise").onclick=()=>{try{const L=S&&S.legal&&!actingOutOfTurn()?S.legal:null;
 const amount=amountOr(L&&L.chips?String(L.min_to):"");
 if(L&&L.chips&&amount&&Number(amount)>L.max_to)throw new Error(L.limit?`${fmt(Number(amount))} is over the limit (${L.limit}): at most ${fmt(L.max_to)}`:`${fmt(Number(amount))} is more than the ${fmt(L.max_to)} ${seatName(L.seat)} has in all`);
 press(L&&L.word==="bet"?"bet":"raise",amount?{amount}:{})}catch(e){say("Not sent: "+e.message,false)}};
$("undo").onclick=()=>press("undo");$("rounddone").onclick=()=>{if(confirm("Close this betting round?"))press("round_done")};$("misdeal").onclick=()=>{if(confirm("Call a misdeal?"))press("misdeal")};
$("confirm").onclick=()=>{if(S&&S.ruling)press("confirm",{ruling:S.ruling.number})};  // names the ruling shown
$("clock").onclick=()=>press("clock",sel!==null?{seat:sel}:{});  // called by the selected seat, else the dealer
$("extend").onclick=()=>press("extend");
$("retrieve").onclick=()=>{if(sel!==null&&confirm("Give "+seatName(sel)+" its folded hand back?"))press("retrieve",{seat:sel})};
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
 const shown=[...S.seats];for(let n=1;n<=10;n++)if(!shown.find(v=>v.seat===n)&&(S.phase==="idle"||S.dead_button===n))shown.push({seat:n,state:"empty"});
 shown.sort((a,b)=>a.seat-b.seat);
 for(const v of shown){const b=document.createElement("button");b.className="seat";b.dataset.seat=v.seat;
  if(v.state==="empty"){b.classList.add("empty");b.textContent=`Seat ${v.seat}: empty`+(S.dead_button===v.seat?" \u00b7 D (dead button)":"")}
  else{if(v.to_act)b.classList.add("toact");if(["folded","dead","sitting out","no chips"].includes(v.state))b.classList.add("out");
   const top=document.createElement("div");top.className="top";const nm=document.createElement("span");nm.className="nm";
   nm.textContent=v.seat+" \u00b7 "+(v.name||"Seat "+v.seat);const bd=document.createElement("span");
   for(const [f,t] of [["button","D"],["small_blind","SB"],["big_blind","BB"]])if(v[f]){const x=document.createElement("span");
    x.className="badge"+(t==="D"?"":" b");x.textContent=t;bd.append(x)}
   top.append(nm,bd);const st=document.createElement("div");st.className="stack";st.textContent=v.stack==null?"":fmt(v.stack);
   const line=document.createElement("div");line.className="small";
   line.textContent=[v.to_act?"TO ACT":"",v.wrong_player?"WRONG PLAYER":v.not_checked_in?"NOT CHECKED IN":"",v.state==="active"||v.state==="seated"?"":v.state.toUpperCase(),v.last_action||(v.bet?"in "+fmt(v.bet):"")].filter(Boolean).join(" \u00b7 ");
   b.append(top,st,line);if(v.declared){const d=document.createElement("div");d.className="decl";d.textContent=v.declared;b.append(d)}}
  if(sel===v.seat)b.classList.add("sel");b.onclick=()=>{sel=sel===v.seat?null:v.seat;render()};seats.append(b)}
 const L=S.legal, oot=actingOutOfTurn(), acting=oot?sel:(L?L.seat:null);
 $("who").textContent=acting==null?(S.phase==="showdown"?(S.won_uncontested!=null?"Hand over: "+seatName(S.won_uncontested)+" wins, the others folded":"Hand over: showdown"):S.between_hands?"Between hands":S.phase==="board"?"Dealing the "+(S.street||"board"):"No one to act"):
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
 $("clock").disabled=S.phase!=="betting"||!!S.clock;$("clock").textContent=sel!==null?"Clock (called by seat "+sel+")":"Call clock";
 const fv=sel===null?null:S.seats.find(x=>x.seat===sel);$("retrieve").disabled=!fv||fv.state!=="folded"||S.between_hands;
 const C=S.clock;$("extend").hidden=!(C&&C.action);$("extend").disabled=!C||!C.extensions_left;
 $("shotclock").textContent=C?"CLOCK on "+seatName(C.seat)+": "+(C.left>0?C.left+" s":"DEAD")+
  " (called by "+(C.called_by==null?"the dealer":"seat "+C.called_by)+(C.raise_said?"; raise said":"")+(C.action?"; "+C.extensions_left+" extension chips":"")+") \u00b7 "+C.rule:"";
 const r=S.ruling;$("ruling").style.display=r?"block":"none";
 if(r){$("rtitle").textContent=r.ruling.replace(/_/g," ").toUpperCase()+" (ruling "+r.number+")";$("rtext").textContent=r.remedy;$("rrule").textContent=r.rule}
 const v=sel===null?null:S.seats.find(x=>x.seat===sel);$("pform").style.display=sel===null?"none":"block";
 $("phint").style.display=sel===null?"block":"none";$("ptitle").textContent=sel===null?"Players":seatName(sel);
 if(v&&document.activeElement!==$("pname"))$("pname").value=v.name||"";
 const empty=!v;$("seatin").disabled=!empty;$("seatmoved").disabled=!empty;
 for(const id of ["rebuy","addon","setstack"])$(id).disabled=empty||!S.between_hands;
 $("bust").disabled=empty||v.stack!==0;$("unseat").disabled=empty;$("savename").disabled=empty;
 $("notes").textContent=S.notices.join(" \u00b7 ")}
function take(state){  // a new hand: the last hand's selection, amount and answer are not this hand's
 if(S&&state.hand!==S.hand){sel=null;$("amount").value="";$("verdict").textContent=""}S=state}
function listen(){const es=new EventSource("events");
 es.addEventListener("state",e=>{take(JSON.parse(e.data));$("conn").textContent="";render()});
 es.onerror=async()=>{$("conn").textContent="reconnecting\u2026";const r=await fetch("state");if(r.status===401){es.close();pair()}}}
function pair(){location.reload()}  // the session ended (expired, revoked): the page answers with the pairing page
$("unpair").onclick=async()=>{if(!confirm("Unpair every other device paired with this table?"))return;
 const j=await post("pair/revoke",{others:true});say(j.ok?`${j.unpaired} other device(s) unpaired; a new code is on the screen`:(j.error||"refused"),j.ok)};
(async()=>{const r=await fetch("state");if(r.status===401){pair();return}S=await r.json();render();listen()})();
